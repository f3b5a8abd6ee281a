import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that sends ``Endpoint``s through an ``HTTPTransport`` and decodes what comes back.
///
/// A client is a transport and one stored ``ClientConfiguration``; ``NetworkClient`` is the ready
/// one, and a type of your own needs only the two:
///
/// ```swift
/// struct MovieClient: APIClient {
///     let transport: any HTTPTransport = URLSessionTransport()
///     let configuration = ClientConfiguration(baseURL: URL(string: "https://api.themoviedb.org/3"))
/// }
/// let page = await MovieClient().fetch(MovieAPI.popular(page: 1), as: MoviePage.self)   // Result<MoviePage, APIError>
/// ```
///
/// Every way of sending (``send(_:as:)`` and ``fetch(_:as:)``, their forms for a ``Request`` and for a
/// `URLRequest` you built, ``response(for:as:)``, ``APIClient/response(for:progress:)``
/// and ``fetch(_:as:completion:)``), and every transfer, goes through one path: build the request,
/// merge its endpoint's ``CallOptions`` with the configuration, run it through the interceptors
/// (adapt, intercept each exchange, send through the ``transport``, check the status, retry), then
/// decode, write or stream the body.
public protocol APIClient: Sendable {
    /// What sends each attempt: a ``URLSessionTransport`` kept for the client's whole life, another
    /// transport, or a stub in tests.
    var transport: any HTTPTransport { get }
    /// The client's settings for every call. Store it (`let configuration = …`): its interceptors keep
    /// state (cookies, cached responses, a refreshed token) that a configuration made anew on every
    /// read would lose.
    var configuration: ClientConfiguration { get }
}
