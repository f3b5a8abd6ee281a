import Foundation
import NetworkLayer

/// A ``MovieAPI`` call aimed at an ``APIEnvironment`` and signed with an API key.
///
/// TMDB v3 takes the key as the `api_key` query parameter. It goes into ``base``, whose query
/// NetworkLayer keeps in front of the call's own parameters, so every kind of ``HTTPTask``
/// carries it without being rewritten: `…/3/movie/popular?api_key=KEY&page=1`.
public struct TMDBEndpoint: Endpoint, Sendable {
    /// The call.
    public let route: MovieAPI
    /// Where it goes.
    public let environment: APIEnvironment
    /// The TMDB v3 API key sent as `api_key`.
    public let apiKey: String
    /// The seconds the call may take, or `nil` for the session's timeout.
    public let timeout: TimeInterval?

    /// Creates the endpoint for `route` in `environment`, signed with `apiKey`.
    /// - Parameter timeout: The seconds the call may take; the session's timeout by default.
    public init(_ route: MovieAPI, environment: APIEnvironment, apiKey: String, timeout: TimeInterval? = nil) {
        self.route = route
        self.environment = environment
        self.apiKey = apiKey
        self.timeout = timeout
    }

    /// The environment's base URL with `api_key` added to its query.
    public var base: String {
        let key = apiKey.addingPercentEncoding(withAllowedCharacters: .urlUnreserved) ?? ""
        let separator = environment.baseURL.contains("?") ? "&" : "?"
        return environment.baseURL + separator + "api_key=" + key
    }

    /// The route's path.
    public var path: String { route.path }
    /// The route's method.
    public var method: HTTPMethod { route.method }
    /// The route's headers.
    public var headers: HTTPHeaders { route.headers }
    /// The route's parameters and body.
    public var task: HTTPTask { route.task }
}

extension CharacterSet {
    /// RFC 3986 unreserved characters, `A-Z a-z 0-9 - . _ ~`: all a query value may carry unescaped.
    static let urlUnreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
