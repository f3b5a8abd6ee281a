import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A TMDB client: an ``APIClient`` with an environment and an API key, and one typed method per call.
///
/// ```swift
/// let client = MovieClient(environment: .production, apiKey: key)
/// let page = try await client.popular(page: 1)
/// ```
///
/// Create one and keep it: it sends everything through one `URLSession`.
public struct MovieClient: APIClient {
    /// The session requests go through.
    public let session: URLSession
    /// Where requests go.
    public let environment: APIEnvironment
    /// The TMDB v3 API key, sent as the `api_key` query parameter.
    public let apiKey: String
    /// The seconds each call may take.
    public let timeout: TimeInterval

    /// The seconds a call may take unless told otherwise: 30, short enough for a command-line tool.
    public static let defaultTimeout: TimeInterval = 30

    /// Creates a client over a session you own.
    /// - Parameters:
    ///   - session: The session to send through; make it with
    ///     `NetworkClient.makeSession(configuration: MovieClient.defaultConfiguration())`.
    ///   - environment: Where requests go.
    ///   - apiKey: The TMDB v3 API key.
    ///   - timeout: The seconds each call may take; ``defaultTimeout`` by default.
    public init(session: URLSession, environment: APIEnvironment, apiKey: String, timeout: TimeInterval = MovieClient.defaultTimeout) {
        self.session = session
        self.environment = environment
        self.apiKey = apiKey
        self.timeout = timeout
    }

    /// NetworkLayer's ``NetworkClient/defaultConfiguration()`` (no cache, 64 connections per host)
    /// with a request timeout of ``defaultTimeout``.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = NetworkClient.defaultConfiguration()
        configuration.timeoutIntervalForRequest = defaultTimeout
        return configuration
    }

    /// The endpoint that sends `route` to this client's environment with its key and timeout.
    public func endpoint(_ route: MovieAPI) -> TMDBEndpoint {
        TMDBEndpoint(route, environment: environment, apiKey: apiKey, timeout: timeout)
    }

    /// One page of popular movies.
    public func popular(page: Int = 1) async throws(APIError) -> MoviePage {
        try await send(endpoint(.popular(page: page)))
    }

    /// One page of the movies in theatres now.
    public func nowPlaying(page: Int = 1) async throws(APIError) -> MoviePage {
        try await send(endpoint(.nowPlaying(page: page)))
    }

    /// One page of the best-rated movies.
    public func topRated(page: Int = 1) async throws(APIError) -> MoviePage {
        try await send(endpoint(.topRated(page: page)))
    }

    /// The details of the movie with TMDB id `id`.
    public func details(id: Int) async throws(APIError) -> MovieDetails {
        try await send(endpoint(.details(id: id)))
    }

    /// Movies recommended for fans of the movie `id`.
    public func recommendations(id: Int) async throws(APIError) -> MoviePage {
        try await send(endpoint(.recommendations(id: id)))
    }

    /// The trailers, teasers and clips of the movie `id`.
    public func videos(id: Int) async throws(APIError) -> VideoList {
        try await send(endpoint(.videos(id: id)))
    }

    /// One page of movies whose title matches `query`.
    public func search(query: String, page: Int = 1) async throws(APIError) -> MoviePage {
        try await send(endpoint(.search(query: query, page: page)))
    }

    /// Rates the movie `id`; TMDB answers with a status object.
    public func rate(id: Int, value: Double) async throws(APIError) -> TMDBStatus {
        try await send(endpoint(.rate(id: id, value: value)))
    }
}
