import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A TMDB client: an ``APIClient`` whose configuration's base URL is its environment with the API
/// key, and whose configuration's timeout is every request's.
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
    /// What requests go through: a ``URLSessionTransport`` over the session given.
    public let transport: any HTTPTransport
    /// Where requests go.
    public let environment: APIEnvironment
    /// The TMDB v3 API key, sent as the `api_key` query parameter.
    public let apiKey: String
    /// The seconds each call may take.
    public let timeout: TimeInterval
    /// The settings of every call: the environment's base URL with `api_key` as its query, which
    /// every ``MovieAPI`` call resolves against (`…/3/movie/popular?api_key=KEY&page=1`), and
    /// ``timeout`` as every call's idle timeout. Stored, as a client's
    /// configuration must be: made once, in ``init(session:environment:apiKey:timeout:)``.
    public let configuration: ClientConfiguration

    /// The seconds a call may take unless told otherwise: 30, short enough for a command-line tool.
    public static let defaultTimeout: TimeInterval = 30

    /// Creates a client over a session you own.
    /// - Parameters:
    ///   - session: The session to send through; make it with `URLSessionTransport().session`.
    ///   - environment: Where requests go.
    ///   - apiKey: The TMDB v3 API key.
    ///   - timeout: The seconds each call may take; ``defaultTimeout`` by default.
    public init(session: URLSession, environment: APIEnvironment, apiKey: String, timeout: TimeInterval = MovieClient.defaultTimeout) {
        transport = URLSessionTransport(session: session)
        self.environment = environment
        self.apiKey = apiKey
        self.timeout = timeout
        configuration = ClientConfiguration(
            baseURL: environment.baseURL(apiKey: apiKey), timeout: timeout)
    }

}
