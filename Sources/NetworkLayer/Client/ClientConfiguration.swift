import Foundation

#if SwiftLog
    import Logging
#endif

/// Everything a client decides for all its calls, as one value: where relative endpoints go, how
/// bodies are coded, which statuses succeed, the interceptors, redirects, timeout, deadline, limits
/// and validation. An endpoint's ``CallOptions`` override it call by call.
///
/// Make it once and keep it, stored: a client's interceptors (a ``CookieJar``, an ``HTTPCache``, a
/// ``RefreshingAuthenticator``) hold state, and a configuration made anew on each read would start
/// each call with empty ones.
///
/// ```swift
/// let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")) {
///     $0.interceptors = [auth, RetryPolicy(), HTTPCache()]
///     $0.deadline = 30
/// }
/// ```
public struct ClientConfiguration: Sendable {
    /// What an endpoint's relative ``Endpoint/base`` (a path such as `"/v2"`, or `""`) resolves
    /// against, so that one API can be sent to production, staging or localhost; `nil` (none) by
    /// default. An endpoint with an absolute `base` keeps it.
    public var baseURL: URL?
    /// Decodes response bodies; a plain `JSONDecoder()` by default.
    public var decoder: JSONDecoder
    /// Encodes ``HTTPTask/requestJSONBody(_:urlParameters:)`` bodies; a plain `JSONEncoder()` by default.
    public var encoder: JSONEncoder
    /// The status codes treated as success; `200..<300` by default. Others fail with ``APIError/unacceptableStatusCode(_:_:)``.
    public var acceptableStatusCodes: Set<Int>
    /// Adapt, intercept, retry and observe every request, in order; none by default. See ``Interceptor``.
    public var interceptors: [any Interceptor]
    /// How redirects are followed, and what may go with them; ``RedirectPolicy/default`` by default.
    public var redirectPolicy: RedirectPolicy
    /// The idle timeout of every call, in seconds: an exchange that sends and receives nothing for
    /// that long fails with ``APIError/timedOut``; 60 by default, as `URLRequest`'s and `URLSession`'s.
    /// An endpoint's ``CallOptions/timeout`` overrides it, and an interceptor may set an attempt's in
    /// its request's `timeoutInterval`; a request built by hand keeps its own `timeoutInterval`.
    public var timeout: TimeInterval
    /// The total deadline of every call, in seconds, beside the idle ``timeout``; `nil` (the default) for none.
    ///
    /// The idle timeout ends an exchange when nothing moves for that long; the deadline ends the whole
    /// call, however busy the server keeps it (a body dripping a byte at a time, a `102 Processing`
    /// every half second), with ``APIError/deadlineExceeded(_:)``. It counts from the call's start and
    /// covers the adapters, every attempt, the waits between retries, redirects, and the body until it
    /// is consumed: decoded, collected or written to a file. A ``APIClient/stream(for:bufferLimit:)``
    /// is covered until it is returned, as AsyncHTTPClient's `deadline` covers a request until its
    /// head: reading it is bounded by the idle timeout and by cancelling the reading task.
    /// An endpoint's ``CallOptions/deadline`` overrides it; a request built by hand gets this one.
    public var deadline: TimeInterval?
    /// How large a response body may grow before the transfer is stopped with
    /// ``APIError/responseTooLarge(_:limit:received:announced:)``; ``ResponseLimits/default`` by default (64 MiB
    /// in memory, downloads and streams unbounded). An endpoint's ``CallOptions/responseLimits`` replaces it.
    public var responseLimits: ResponseLimits
    /// The queue on which ``APIClient/fetch(_:as:completion:)`` calls its completion; `.main` by default.
    public var callbackQueue: DispatchQueue
    /// Checks every response before it is decoded, and may throw your own error: for example the
    /// `ServerError` an API's 4xx bodies decode as. The call then fails with
    /// ``APIError/validationFailed(_:_:)`` carrying it (an ``APIError`` you throw is kept as it is).
    /// `nil` (none) by default.
    ///
    /// It sees the response the call ends with, once the ``interceptors`` are done with it (so a
    /// retrier still sees ``APIError/unacceptableStatusCode(_:_:)`` for a `503`, and an authenticator
    /// a `401`), after the endpoint's ``CallOptions/validateResponse``: an accepted response before it
    /// is decoded, and a status outside ``acceptableStatusCodes`` with up to 64 KiB of its body before
    /// the call fails with ``APIError/unacceptableStatusCode(_:_:)``, which it fails with still when
    /// this returns. A download or a stream is checked only on such a status.
    public var validate: (@Sendable (HTTPResponse) throws -> Void)?
    #if SwiftLog
        /// The logger every call is logged to, at `trace` (each exchange and attempt) and `debug` (each
        /// call's end), with the URL redacted as ``Redaction/default`` says; `nil` (none) by default. A
        /// call's ``CallOptions/logger`` wins. With the package trait `SwiftLog` only.
        public var logger: Logger?
    #endif

    /// Creates a configuration; every setting has a default.
    /// - Parameters:
    ///   - baseURL: What endpoints with a relative ``Endpoint/base`` resolve against; `nil` (none) by default.
    ///   - decoder: Decodes response bodies; `JSONDecoder()` by default.
    ///   - encoder: Encodes `Encodable` bodies; `JSONEncoder()` by default.
    ///   - acceptableStatusCodes: The status codes treated as success; `200..<300` by default.
    ///   - interceptors: Adapt, intercept, retry and observe every request, in order; none by default.
    ///   - redirectPolicy: How redirects are followed; ``RedirectPolicy/default`` by default.
    ///   - timeout: The idle timeout of every call in seconds; 60 by default.
    ///   - deadline: The total deadline of every call in seconds, retries included; `nil` (none) by default.
    ///   - responseLimits: How large a response body may grow; ``ResponseLimits/default`` by default.
    ///   - callbackQueue: The queue for completion handlers; `.main` by default.
    ///   - validate: Checks every response before it is decoded; `nil` (none) by default.
    public init(
        baseURL: URL? = nil,
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        acceptableStatusCodes: Set<Int> = Set(200..<300),
        interceptors: [any Interceptor] = [],
        redirectPolicy: RedirectPolicy = .default,
        timeout: TimeInterval = 60,
        deadline: TimeInterval? = nil,
        responseLimits: ResponseLimits = .default,
        callbackQueue: DispatchQueue = .main,
        validate: (@Sendable (HTTPResponse) throws -> Void)? = nil
    ) {
        self.baseURL = baseURL
        self.decoder = decoder
        self.encoder = encoder
        self.acceptableStatusCodes = acceptableStatusCodes
        self.interceptors = interceptors
        self.redirectPolicy = redirectPolicy
        self.timeout = timeout
        self.deadline = deadline
        self.responseLimits = responseLimits
        self.callbackQueue = callbackQueue
        self.validate = validate
    }
}
