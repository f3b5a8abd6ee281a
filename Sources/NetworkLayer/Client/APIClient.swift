import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that sends ``Endpoint``s through an ``HTTPTransport`` (a `URLSession` by default) and
/// decodes what comes back.
///
/// Only ``transport`` is required, so `struct MovieClient: APIClient { let transport: any HTTPTransport }`
/// is a complete client (`MovieClient(transport: URLSessionTransport(session: NetworkClient.makeSession()))`);
/// the other requirements have defaults you can override:
///
/// ```swift
/// let page = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)   // Result<MoviePage, APIError>
/// ```
///
/// Every way of sending (``send(_:as:)`` and ``fetch(_:as:)``, their forms for a ``Request`` and for a
/// `URLRequest` you built, ``response(for:as:)``, ``APIClient/response(for:progress:)``
/// and ``fetch(_:as:completion:)``), and every transfer, goes through one path: build the request,
/// run it through the ``interceptors`` (adapt, intercept, send through the ``transport``, check the
/// status against ``acceptableStatusCodes``, retry), then decode, write or stream the body.
public protocol APIClient: Sendable {
    /// What sends each attempt: a ``URLSessionTransport`` over a session you keep for the client's
    /// whole life, another transport, or a stub in tests. The one requirement without a default.
    var transport: any HTTPTransport { get }
    /// What an endpoint's relative ``Endpoint/base`` (a path such as `"/v2"`, or `""`) resolves
    /// against, so that one API can be sent to production, staging or localhost; `nil` (none) by
    /// default. An endpoint with an absolute `base` keeps it.
    var baseURL: URL? { get }
    /// Decodes response bodies; a plain `JSONDecoder()` by default.
    var decoder: JSONDecoder { get }
    /// Encodes ``HTTPTask/requestJSONBody(_:urlParameters:)`` bodies; a plain `JSONEncoder()` by default.
    var encoder: JSONEncoder { get }
    /// The status codes treated as success; `200..<300` by default. Others fail with ``APIError/unacceptableStatusCode(_:_:)``.
    var acceptableStatusCodes: Set<Int> { get }
    /// The queue on which ``fetch(_:as:completion:)`` calls its completion; `.main` by default.
    var callbackQueue: DispatchQueue { get }
    /// Adapt, retry and observe every request, in order; none by default. See ``Interceptor``.
    var interceptors: [any Interceptor] { get }
    /// How redirects are followed, and what may go with them; ``RedirectPolicy/default`` by default.
    var redirectPolicy: RedirectPolicy { get }
    /// The total deadline of every call, in seconds, beside the idle timeout; `nil` (the default) for none.
    ///
    /// The idle timeout ends an exchange when nothing moves for that long; the deadline ends the whole
    /// call, however busy the server keeps it (a body dripping a byte at a time, a `102 Processing`
    /// every half second), with ``APIError/deadlineExceeded(_:)``. It counts from the call's start and
    /// covers the adapters, every attempt, the waits between retries, redirects, and the body until it
    /// is consumed: decoded, collected or written to a file. A ``stream(for:bufferLimit:)``
    /// is covered until it is returned, as AsyncHTTPClient's `deadline` covers a request until its
    /// head: reading it is bounded by the idle timeout and by cancelling the reading task.
    /// ``CallOptions/deadline`` overrides it, and an interceptor's ``Interceptor/adaptDeadline(_:for:context:)``
    /// overrides both; a request built by hand gets this one.
    var deadline: TimeInterval? { get }
    /// How large a response body may grow before the transfer is stopped with
    /// ``APIError/responseTooLarge(_:limit:received:)``; ``ResponseLimits/default`` by default (64 MiB
    /// in memory, downloads and streams unbounded). An endpoint's ``CallOptions/responseLimits`` replaces it.
    var responseLimits: ResponseLimits { get }
    /// Checks every response before it is decoded, and may throw your own error: for example the
    /// `ServerError` an API's 4xx bodies decode as. The call then fails with
    /// ``APIError/validationFailed(_:_:)`` carrying it (an ``APIError`` you throw is kept as it is).
    ///
    /// It sees the response the call ends with, once the ``interceptors`` are done with it (so a
    /// retrier still sees ``APIError/unacceptableStatusCode(_:_:)`` for a `503`, and an authenticator
    /// a `401`), after the endpoint's ``CallOptions/validateResponse``: an accepted response before it is
    /// decoded, and a status outside ``acceptableStatusCodes`` with up to 64 KiB of its body before
    /// the call fails with ``APIError/unacceptableStatusCode(_:_:)``, which it fails with still when
    /// this returns. A download or a stream is checked only on such a status. Does nothing by default.
    func validate(_ response: HTTPResponse) throws
}

/// `200..<300`, built once.
private let successStatusCodes = Set(200..<300)

extension APIClient {
    /// `nil`: every endpoint names its server with an absolute ``Endpoint/base``.
    public var baseURL: URL? { nil }
    /// A new `JSONDecoder()`.
    public var decoder: JSONDecoder { JSONDecoder() }
    /// A new `JSONEncoder()`.
    public var encoder: JSONEncoder { JSONEncoder() }
    /// `200..<300`.
    public var acceptableStatusCodes: Set<Int> { successStatusCodes }
    /// `DispatchQueue.main`.
    public var callbackQueue: DispatchQueue { .main }
    /// None.
    public var interceptors: [any Interceptor] { [] }
    /// ``RedirectPolicy/default``: up to 20, never from `https` to `http`, credentials kept within their origin.
    public var redirectPolicy: RedirectPolicy { .default }
    /// `nil`: no total deadline, only the idle timeout.
    public var deadline: TimeInterval? { nil }
    /// ``ResponseLimits/default``: 64 MiB in memory, downloads and streams unbounded.
    public var responseLimits: ResponseLimits { .default }
    /// Nothing: the status check against ``acceptableStatusCodes`` is the only one.
    public func validate(_ response: HTTPResponse) throws {}
}
