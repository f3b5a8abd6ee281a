import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A TMDB client: an ``APIClient`` with an environment, an API key and a timeout, which its
/// ``TMDBSigner`` puts on every request.
///
/// Each call is a typed ``Request`` (see `MovieRequests.swift`), so the client needs no method per
/// call and the response type is inferred:
///
/// ```swift
/// let client = MovieClient(session: session, environment: .production, apiKey: key)
/// let page = try await client.send(.popular(page: 1))   // a MoviePage
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

    /// Aims each request at ``environment`` with ``apiKey`` and ``timeout``.
    public var signer: TMDBSigner {
        TMDBSigner(environment: environment, apiKey: apiKey, timeout: timeout)
    }

    /// The ``signer``, which adapts every attempt.
    public var interceptors: [any Interceptor] { [signer] }
}
