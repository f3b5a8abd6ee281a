import Foundation

/// Everything `GET /movie/{id}` says about one movie that this app shows.
public struct MovieDetails: Decodable, Sendable, Equatable, Identifiable {
    /// The TMDB id.
    public let id: Int
    /// The title in English.
    public let title: String
    /// The title in the original language.
    public let originalTitle: String
    /// The marketing line, for example "Mischief. Mayhem. Soap."; may be empty.
    public let tagline: String
    /// A short plot summary; may be empty.
    public let overview: String
    /// The first release date, or `nil` when TMDB has none.
    public let releaseDate: ReleaseDate?
    /// The running time in minutes, or `nil` when unknown (TMDB sends `0` or `null`).
    public let runtime: Int?
    /// The genres, in TMDB's order.
    public let genres: [Genre]
    /// The production status, for example `Released` or `In Production`.
    public let status: String
    /// The average user rating, 0 to 10.
    public let voteAverage: Double
    /// How many users rated it.
    public let voteCount: Int

    /// The release year, when known.
    public var year: Int? { releaseDate?.year }

    enum CodingKeys: String, CodingKey {
        case id, title, tagline, overview, runtime, genres, status
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
    }

    /// Decodes TMDB's snake_case JSON, tolerating the empty strings and zeros it uses for unknowns.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle) ?? title
        tagline = try container.decodeIfPresent(String.self, forKey: .tagline) ?? ""
        overview = try container.decodeIfPresent(String.self, forKey: .overview) ?? ""
        releaseDate = container.decodeReleaseDate(forKey: .releaseDate)
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime).flatMap { $0 > 0 ? $0 : nil }
        genres = try container.decodeIfPresent([Genre].self, forKey: .genres) ?? []
        status = try container.decodeIfPresent(String.self, forKey: .status) ?? ""
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
    }
}

/// A TMDB genre, for example `18 Drama`.
public struct Genre: Decodable, Sendable, Equatable, Identifiable {
    /// The TMDB genre id.
    public let id: Int
    /// The genre's English name.
    public let name: String
}
