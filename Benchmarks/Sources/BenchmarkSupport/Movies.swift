import Foundation

/// The model the decoding and loopback benchmarks decode: a page of movies, as an API would send it.
public struct MoviePage: Codable, Sendable {
    /// The page number.
    public let page: Int
    /// How many movies all pages hold.
    public let totalResults: Int
    /// The movies on this page.
    public let results: [Movie]

    enum CodingKeys: String, CodingKey {
        case page
        case totalResults = "total_results"
        case results
    }
}

/// One movie of a ``MoviePage``.
public struct Movie: Codable, Sendable {
    /// The movie's ID.
    public let id: Int
    /// The title.
    public let title: String
    /// A one-line summary.
    public let overview: String
    /// The release date, `yyyy-MM-dd`.
    public let releaseDate: String
    /// The average rating out of 10.
    public let voteAverage: Double
    /// The IDs of its genres.
    public let genreIDs: [Int]
    /// Whether it is for adults only.
    public let adult: Bool

    enum CodingKeys: String, CodingKey {
        case id, title, overview, adult
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case genreIDs = "genre_ids"
    }
}

extension MoviePage {
    /// The JSON of a page with as many movies as fit in about `bytes` bytes (at least one).
    public static func json(bytes: Int) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let one = (try? encoder.encode(page(movies: 1)).count) ?? 256
        let perMovie = ((try? encoder.encode(page(movies: 2)).count) ?? 512) - one
        let movies = max(1, 1 + (bytes - one) / perMovie)
        return (try? encoder.encode(page(movies: movies))) ?? Data()
    }

    private static func page(movies count: Int) -> MoviePage {
        let movies = (0..<count).map { index in
            Movie(
                id: 550 + index,
                title: "Fight Club \(index)",
                overview: "A ticking-time-bomb insomniac and a slippery soap salesman channel primal male aggression.",
                releaseDate: "1999-10-15",
                voteAverage: 8.4,
                genreIDs: [18, 53, 35],
                adult: false
            )
        }
        return MoviePage(page: 1, totalResults: count, results: movies)
    }
}
