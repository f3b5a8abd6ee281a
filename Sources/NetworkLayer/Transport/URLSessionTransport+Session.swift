import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Creates a transport over a session of its own, made from `configuration`, tuned for APIs and
    /// guarded against FoundationNetworking's traps: on Linux its delegate is the transport's.
    /// - Parameter configuration: The session configuration; ``defaultConfiguration()`` by default.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration()) {
        self.init(session: Self.makeSession(configuration: configuration))
    }

    /// The configuration `URLSessionTransport()` uses by default.
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

    /// A session of the transport's own: on Linux its delegate and delegate queue are the
    /// transport's, where any other session gets a companion session made from its configuration.
    static func makeSession(configuration: URLSessionConfiguration) -> URLSession {
        #if canImport(FoundationNetworking)
            URLSession(configuration: configuration, delegate: SessionDelegate(), delegateQueue: InlineOperationQueue())
        #else
            URLSession(configuration: configuration)
        #endif
    }
}
