import Foundation
import NetworkLayer

/// Each ``MovieAPI`` call with the type its response decodes as, so that a client infers it:
/// `try await client.send(.popular(page: 1))` is a ``MoviePage``.
extension Request where Value == MoviePage {
    /// One page of popular movies.
    public static func popular(page: Int = 1) -> Self { Request(MovieAPI.popular(page: page)) }
    /// One page of the movies in theatres now.
    public static func nowPlaying(page: Int = 1) -> Self { Request(MovieAPI.nowPlaying(page: page)) }
    /// One page of the best-rated movies.
    public static func topRated(page: Int = 1) -> Self { Request(MovieAPI.topRated(page: page)) }
    /// Movies recommended for fans of the movie `id`.
    public static func recommendations(id: Int) -> Self { Request(MovieAPI.recommendations(id: id)) }
    /// One page of movies whose title matches `query`.
    public static func search(query: String, page: Int = 1) -> Self { Request(MovieAPI.search(query: query, page: page)) }
}

extension Request where Value == MovieDetails {
    /// The details of the movie with TMDB id `id`.
    public static func details(id: Int) -> Self { Request(MovieAPI.details(id: id)) }
}

extension Request where Value == VideoList {
    /// The trailers, teasers and clips of the movie `id`.
    public static func videos(id: Int) -> Self { Request(MovieAPI.videos(id: id)) }
}

extension Request where Value == TMDBStatus {
    /// Rates the movie `id`; TMDB answers with a status object.
    public static func rate(id: Int, value: Double) -> Self { Request(MovieAPI.rate(id: id, value: value)) }
}
