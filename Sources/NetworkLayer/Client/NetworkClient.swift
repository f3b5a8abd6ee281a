import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ready ``APIClient``: `NetworkClient()` works as it is, and every setting has a default.
///
/// Create one and keep it: it owns one `URLSession` for its whole life, because connections
/// are reused only within a session and short-lived sessions are costly (and on Linux,
/// tearing them down can crash).
///
/// It sends through a ``URLSessionTransport``, which on Linux keeps FoundationNetworking from
/// hanging on a 401 with a `WWW-Authenticate: Basic` challenge (the 401 comes back as
/// ``APIError/unacceptableStatusCode(_:_:)``), whatever the session; `NetworkClient(transport:)`
/// takes any other ``HTTPTransport``. Redirects are followed by its ``redirectPolicy`` on every transport.
public struct NetworkClient: APIClient {
    /// The session of its ``URLSessionTransport``, or `nil` when the client sends through another transport.
    public let session: URLSession?
    /// What sends each attempt.
    public let transport: any HTTPTransport
    /// What an endpoint's relative ``Endpoint/base`` resolves against; see ``APIClient/baseURL``.
    public let baseURL: URL?
    /// Decodes response bodies.
    public let decoder: JSONDecoder
    /// Encodes `Encodable` bodies.
    public let encoder: JSONEncoder
    /// The status codes treated as success.
    public let acceptableStatusCodes: Set<Int>
    /// The queue for completion handlers.
    public let callbackQueue: DispatchQueue
    /// Adapt, retry and observe every request, in order.
    public let interceptors: [any Interceptor]
    /// How redirects are followed, and what may go with them.
    public let redirectPolicy: RedirectPolicy
    /// The total deadline of every call in seconds, `nil` for none; see ``APIClient/deadline``.
    public let deadline: TimeInterval?
    /// How large a response body may grow before the transfer is stopped.
    public let responseLimits: ResponseLimits
    /// The checks ``validating(_:)`` added, in order; none by default.
    var validations: [@Sendable (HTTPResponse) throws -> Void] = []

    /// Creates a client with its own session, tuned for APIs and guarded against FoundationNetworking's traps.
    /// - Parameters:
    ///   - baseURL: What endpoints with a relative ``Endpoint/base`` resolve against, for example
    ///     `https://staging.example.com/v1`; `nil` (none: every base must be absolute) by default.
    ///   - configuration: The session configuration; ``defaultConfiguration()`` by default.
    ///   - decoder: Decodes response bodies; `JSONDecoder()` by default.
    ///   - encoder: Encodes `Encodable` bodies; `JSONEncoder()` by default.
    ///   - acceptableStatusCodes: The status codes treated as success; `200..<300` by default.
    ///   - interceptors: Adapt, retry and observe every request, in order; none by default.
    ///   - redirectPolicy: How redirects are followed; ``RedirectPolicy/default`` by default.
    ///   - deadline: The total deadline of every call in seconds, retries included; `nil` (none) by default.
    ///   - responseLimits: How large a response body may grow; ``ResponseLimits/default`` (64 MiB in
    ///     memory, downloads and streams unbounded) by default.
    ///   - callbackQueue: The queue for completion handlers; `.main` by default.
    public init(
        baseURL: URL? = nil,
        configuration: URLSessionConfiguration = NetworkClient.defaultConfiguration(),
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        acceptableStatusCodes: Set<Int> = Set(200..<300),
        interceptors: [any Interceptor] = [],
        redirectPolicy: RedirectPolicy = .default,
        deadline: TimeInterval? = nil,
        responseLimits: ResponseLimits = .default,
        callbackQueue: DispatchQueue = .main
    ) {
        self.init(
            baseURL: baseURL,
            session: NetworkClient.makeSession(configuration: configuration),
            decoder: decoder,
            encoder: encoder,
            acceptableStatusCodes: acceptableStatusCodes,
            interceptors: interceptors,
            redirectPolicy: redirectPolicy,
            deadline: deadline,
            responseLimits: responseLimits,
            callbackQueue: callbackQueue
        )
    }

    /// Creates a client over a session you own, such as `URLSession.shared` or a stubbed one.
    /// - Parameters:
    ///   - baseURL: What endpoints with a relative ``Endpoint/base`` resolve against; `nil` (none) by default.
    ///   - session: The session to send through.
    ///   - decoder: Decodes response bodies; `JSONDecoder()` by default.
    ///   - encoder: Encodes `Encodable` bodies; `JSONEncoder()` by default.
    ///   - acceptableStatusCodes: The status codes treated as success; `200..<300` by default.
    ///   - interceptors: Adapt, retry and observe every request, in order; none by default.
    ///   - redirectPolicy: How redirects are followed; ``RedirectPolicy/default`` by default.
    ///   - deadline: The total deadline of every call in seconds, retries included; `nil` (none) by default.
    ///   - responseLimits: How large a response body may grow; ``ResponseLimits/default`` (64 MiB in
    ///     memory, downloads and streams unbounded) by default.
    ///   - callbackQueue: The queue for completion handlers; `.main` by default.
    public init(
        baseURL: URL? = nil,
        session: URLSession,
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        acceptableStatusCodes: Set<Int> = Set(200..<300),
        interceptors: [any Interceptor] = [],
        redirectPolicy: RedirectPolicy = .default,
        deadline: TimeInterval? = nil,
        responseLimits: ResponseLimits = .default,
        callbackQueue: DispatchQueue = .main
    ) {
        self.init(
            baseURL: baseURL, transport: URLSessionTransport(session: session), decoder: decoder, encoder: encoder,
            acceptableStatusCodes: acceptableStatusCodes, interceptors: interceptors, redirectPolicy: redirectPolicy,
            deadline: deadline, responseLimits: responseLimits, callbackQueue: callbackQueue)
    }

    /// Creates a client that sends through `transport`: a ``URLSessionTransport``, a stub in tests,
    /// or a transport of your own.
    /// - Parameters:
    ///   - baseURL: What endpoints with a relative ``Endpoint/base`` resolve against; `nil` (none) by default.
    ///   - transport: What sends each attempt.
    ///   - decoder: Decodes response bodies; `JSONDecoder()` by default.
    ///   - encoder: Encodes `Encodable` bodies; `JSONEncoder()` by default.
    ///   - acceptableStatusCodes: The status codes treated as success; `200..<300` by default.
    ///   - interceptors: Adapt, intercept, retry and observe every request, in order; none by default.
    ///   - redirectPolicy: How redirects are followed; ``RedirectPolicy/default`` by default.
    ///   - deadline: The total deadline of every call in seconds, retries included; `nil` (none) by default.
    ///   - responseLimits: How large a response body may grow; ``ResponseLimits/default`` (64 MiB in
    ///     memory, downloads and streams unbounded) by default.
    ///   - callbackQueue: The queue for completion handlers; `.main` by default.
    public init(
        baseURL: URL? = nil,
        transport: any HTTPTransport,
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        acceptableStatusCodes: Set<Int> = Set(200..<300),
        interceptors: [any Interceptor] = [],
        redirectPolicy: RedirectPolicy = .default,
        deadline: TimeInterval? = nil,
        responseLimits: ResponseLimits = .default,
        callbackQueue: DispatchQueue = .main
    ) {
        self.baseURL = baseURL
        self.transport = transport
        session = (transport as? URLSessionTransport)?.session
        self.decoder = decoder
        self.encoder = encoder
        self.acceptableStatusCodes = acceptableStatusCodes
        self.callbackQueue = callbackQueue
        self.interceptors = interceptors
        self.redirectPolicy = redirectPolicy
        self.deadline = deadline
        self.responseLimits = responseLimits
    }

    /// Creates a session like the one `NetworkClient(configuration:)`
    /// makes, for an ``APIClient`` type of your own.
    ///
    /// Any session works with ``URLSessionTransport``; on Linux, one made here is the transport's
    /// own (its delegate and delegate queue are the transport's), where any other gets a companion
    /// session made from its configuration.
    /// - Parameter configuration: The session configuration; ``defaultConfiguration()`` by default.
    public static func makeSession(configuration: URLSessionConfiguration = defaultConfiguration()) -> URLSession {
        #if canImport(FoundationNetworking)
            URLSession(configuration: configuration, delegate: SessionDelegate(), delegateQueue: InlineOperationQueue())
        #else
            URLSession(configuration: configuration)
        #endif
    }

    /// The configuration `NetworkClient(configuration:)` uses by default.
    ///
    /// `URLSessionConfiguration.default` with up to 64 connections per host instead of 6, so
    /// concurrent requests do not queue behind a few sockets; on Linux also without a `URLCache`
    /// (there a cache makes mass cancellation crash). URLSession's own cookie handling is off (no
    /// cookie storage, `httpShouldSetCookies` `false`), as AsyncHTTPClient has none: add a ``CookieJar``
    /// to keep cookies the same way over every transport.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        #if canImport(FoundationNetworking)
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #endif
        configuration.httpMaximumConnectionsPerHost = 64
        return configuration
    }
}
