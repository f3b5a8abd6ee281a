import Foundation
import NetworkLayer

/// The TMDB v3 calls this app makes: one case per call, each knowing its path, method and parameters.
///
/// A case gives only its path, method and parameters: its `base` is the default, `""`, so it goes
/// to the base URL of the client that sends it, ``MovieClient/baseURL`` (the environment, with the
/// `api_key`). Each has a typed ``Request`` beside it (`MovieRequests.swift`).
public enum MovieAPI: Endpoint, Sendable, Equatable {
    /// `GET /movie/popular`: the most popular movies, one page at a time.
    case popular(page: Int)
    /// `GET /movie/now_playing`: movies in theatres now.
    case nowPlaying(page: Int)
    /// `GET /movie/top_rated`: movies by average rating.
    case topRated(page: Int)
    /// `GET /movie/{id}`: one movie's details.
    case details(id: Int)
    /// `GET /movie/{id}/recommendations`: movies like this one.
    case recommendations(id: Int)
    /// `GET /movie/{id}/videos`: trailers, teasers and clips.
    case videos(id: Int)
    /// `GET /search/movie`: movies whose title matches `query`.
    case search(query: String, page: Int)
    /// `POST /movie/{id}/rating` with the JSON body `{"value": 8.5}`.
    case rate(id: Int, value: Double)

    /// The path below the base URL, for example `/movie/550/videos`.
    public var path: String {
        switch self {
        case .popular: "/movie/popular"
        case .nowPlaying: "/movie/now_playing"
        case .topRated: "/movie/top_rated"
        case .details(let id): "/movie/\(id)"
        case .recommendations(let id): "/movie/\(id)/recommendations"
        case .videos(let id): "/movie/\(id)/videos"
        case .search: "/search/movie"
        case .rate(let id, _): "/movie/\(id)/rating"
        }
    }

    /// `POST` for ``rate(id:value:)``, `GET` for everything else.
    public var method: HTTPMethod {
        if case .rate = self { .post } else { .get }
    }

    /// Every call asks for JSON.
    public var headers: HTTPHeaders { ["Accept": "application/json"] }

    /// The page and query as URL parameters, or the rating as a JSON body.
    public var task: HTTPTask {
        switch self {
        case .popular(let page), .nowPlaying(let page), .topRated(let page):
            .requestParameters(urlParameters: ["page": page])
        case .details, .recommendations, .videos:
            .request
        case .search(let query, let page):
            .requestParameters(urlParameters: ["query": query, "page": page, "include_adult": false])
        case .rate(_, let value):
            .requestJSONBody(RatingBody(value: value))
        }
    }
}

/// The body of ``MovieAPI/rate(id:value:)``: `{"value": 8.5}`.
struct RatingBody: Encodable, Sendable {
    /// The rating, from 0.5 to 10 in steps of 0.5.
    let value: Double
}
