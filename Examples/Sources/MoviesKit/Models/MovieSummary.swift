import Foundation

/// A movie as it appears in lists: popular, top rated, search results, recommendations.
public struct MovieSummary: Decodable, Sendable, Equatable, Identifiable {
    /// The TMDB id, for example `550`.
    public let id: Int
    /// The title in English.
    public let title: String
    /// The title in the original language.
    public let originalTitle: String
    /// A short plot summary; may be empty.
    public let overview: String
    /// The first release date, or `nil` when TMDB has none (it sends `""`).
    public let releaseDate: ReleaseDate?
    /// The average user rating, 0 to 10.
    public let voteAverage: Double
    /// How many users rated it.
    public let voteCount: Int
    /// The poster image path below TMDB's image base URL, when there is one.
    public let posterPath: String?

    /// The release year, when known.
    public var year: Int? { releaseDate?.year }

    enum CodingKeys: String, CodingKey {
        case id, title, overview
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case posterPath = "poster_path"
    }

    /// Decodes TMDB's snake_case JSON; a missing or empty `release_date` gives a `nil` date.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle) ?? title
        overview = try container.decodeIfPresent(String.self, forKey: .overview) ?? ""
        releaseDate = container.decodeReleaseDate(forKey: .releaseDate)
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
    }
}
