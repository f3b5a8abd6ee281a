import Foundation

/// One movie of the fixture catalog, with every field the server's answers are built from.
///
/// Titles, dates, runtimes, genres, taglines and approximate ratings are public facts about
/// well-known films; overviews are written for these fixtures, and poster paths and video keys
/// are invented (derived from the id), so they do not point at real images or videos.
struct FixtureFilm: Sendable {
    let id: Int
    let title: String
    let originalTitle: String
    let originalLanguage: String
    /// `yyyy-MM-dd`, or `""` for a film with no date yet, as TMDB sends it.
    let releaseDate: String
    /// Minutes; `0` when unknown, as TMDB sends it.
    let runtime: Int
    let genreIDs: [Int]
    let tagline: String
    let overview: String
    let voteAverage: Double
    let voteCount: Int
    let popularity: Double
    let status: String

    init(
        _ id: Int, _ title: String, original: String? = nil, language: String = "en", released: String, runtime: Int,
        genres: [Int], tagline: String, overview: String, rating: Double, votes: Int, popularity: Double,
        status: String = "Released"
    ) {
        self.id = id
        self.title = title
        self.originalTitle = original ?? title
        self.originalLanguage = language
        self.releaseDate = released
        self.runtime = runtime
        self.genreIDs = genres
        self.tagline = tagline
        self.overview = overview
        self.voteAverage = rating
        self.voteCount = votes
        self.popularity = popularity
        self.status = status
    }

    /// An invented 31-character poster path in TMDB's style, stable for the id.
    var posterPath: String { "/" + Self.pseudoRandomKey(seed: id, length: 27) + ".jpg" }

    /// An invented 32-character backdrop path in TMDB's style, stable for the id.
    var backdropPath: String { "/" + Self.pseudoRandomKey(seed: id &* 31 &+ 7, length: 27) + ".jpg" }

    /// A string of URL-safe letters and digits derived from `seed` (a linear congruential sequence).
    static func pseudoRandomKey(seed: Int, length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var state = UInt64(truncatingIfNeeded: seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return String(
            (0..<length).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int(state >> 58)]
            }
        )
    }
}

/// TMDB's movie genres, by id.
enum FixtureGenres {
    static let names: [Int: String] = [
        28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary", 18: "Drama",
        10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music", 9648: "Mystery", 10749: "Romance",
        878: "Science Fiction", 10770: "TV Movie", 53: "Thriller", 10752: "War", 37: "Western",
    ]
}
