import Foundation

/// The JSON shapes the fixture server sends, written the way TMDB's v3 API writes them (snake_case).
///
/// They are the server's own types, separate from MoviesKit's models, so a client decoding
/// mistake shows up as a failure instead of being mirrored by a shared type.
enum TMDBJSON {
    /// A movie in a list.
    struct Summary: Encodable {
        let adult = false
        let backdropPath: String
        let genreIDs: [Int]
        let id: Int
        let originalLanguage: String
        let originalTitle: String
        let overview: String
        let popularity: Double
        let posterPath: String
        let releaseDate: String
        let title: String
        let video = false
        let voteAverage: Double
        let voteCount: Int

        init(_ film: FixtureFilm) {
            (backdropPath, genreIDs, id, originalLanguage) = (film.backdropPath, film.genreIDs, film.id, film.originalLanguage)
            (originalTitle, overview, popularity, posterPath) = (film.originalTitle, film.overview, film.popularity, film.posterPath)
            (releaseDate, title, voteAverage, voteCount) = (film.releaseDate, film.title, film.voteAverage, film.voteCount)
        }

        enum CodingKeys: String, CodingKey {
            case adult, id, overview, popularity, title, video
            case backdropPath = "backdrop_path", genreIDs = "genre_ids", originalLanguage = "original_language"
            case originalTitle = "original_title", posterPath = "poster_path", releaseDate = "release_date"
            case voteAverage = "vote_average", voteCount = "vote_count"
        }
    }

    /// A page of a list; `dates` only for `now_playing`.
    struct Page: Encodable {
        let dates: Dates?
        let page: Int
        let results: [Summary]
        let totalPages: Int
        let totalResults: Int

        enum CodingKeys: String, CodingKey {
            case dates, page, results
            case totalPages = "total_pages", totalResults = "total_results"
        }
    }

    /// The window `now_playing` covers.
    struct Dates: Encodable {
        let maximum: String
        let minimum: String
    }

    /// `GET /movie/{id}`.
    struct Details: Encodable {
        let adult = false
        let backdropPath: String
        let genres: [Genre]
        let homepage = ""
        let id: Int
        let originalLanguage: String
        let originalTitle: String
        let overview: String
        let popularity: Double
        let posterPath: String
        let releaseDate: String
        let runtime: Int
        let status: String
        let tagline: String
        let title: String
        let video = false
        let voteAverage: Double
        let voteCount: Int

        init(_ film: FixtureFilm) {
            (backdropPath, id, originalLanguage, originalTitle) = (film.backdropPath, film.id, film.originalLanguage, film.originalTitle)
            (overview, popularity, posterPath, releaseDate) = (film.overview, film.popularity, film.posterPath, film.releaseDate)
            (runtime, status, tagline, title) = (film.runtime, film.status, film.tagline, film.title)
            (voteAverage, voteCount) = (film.voteAverage, film.voteCount)
            genres = film.genreIDs.map { Genre(id: $0, name: FixtureGenres.names[$0] ?? "Unknown") }
        }

        enum CodingKeys: String, CodingKey {
            case adult, genres, homepage, id, overview, popularity, runtime, status, tagline, title, video
            case backdropPath = "backdrop_path", originalLanguage = "original_language", originalTitle = "original_title"
            case posterPath = "poster_path", releaseDate = "release_date", voteAverage = "vote_average", voteCount = "vote_count"
        }
    }

    /// A genre inside details.
    struct Genre: Encodable {
        let id: Int
        let name: String
    }

    /// `GET /movie/{id}/videos`.
    struct VideoList: Encodable {
        let id: Int
        let results: [Video]
    }

    /// One video.
    struct Video: Encodable {
        let iso6391 = "en"
        let iso31661 = "US"
        let name: String
        let key: String
        let site = "YouTube"
        let size = 1080
        let type: String
        let official = true
        let publishedAt: String
        let id: String

        enum CodingKeys: String, CodingKey {
            case name, key, site, size, type, official, id
            case iso6391 = "iso_639_1", iso31661 = "iso_3166_1", publishedAt = "published_at"
        }
    }

    /// TMDB's status object, for writes and errors.
    struct Status: Encodable {
        let statusCode: Int
        let statusMessage: String
        let success: Bool

        enum CodingKeys: String, CodingKey {
            case success
            case statusCode = "status_code", statusMessage = "status_message"
        }
    }
}
