import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a client follows redirects: how many, whether it may leave TLS, which headers never leave
/// their origin, and, if you wish, a decision of your own for each one.
///
/// NetworkLayer follows redirects itself, the same way over every transport: the transports hand
/// back every `3xx` as it is, and the client sends the next request by this policy.
///
/// - A `301`, `302`, `303`, `307` or `308` with a `Location` is followed, up to
///   ``maximumRedirects`` times; one more fails with ``APIError/requestFailed(_:)``
///   (`httpTooManyRedirects`).
/// - A `303`, and a `301` or `302` answering a `POST`, turn the request into a `GET` without its body
///   and without the headers that describe it (`Content-Type`, `Content-Length`, `Content-Encoding`,
///   `Content-Language`, `Content-Location`); a `HEAD` stays a `HEAD`. The others keep the method and
///   send the body again, from memory or from its file. A body read from an `httpBodyStream` cannot
///   be sent twice: its redirect comes back as the response.
/// - Credentials never leave their origin (scheme, host and port): `Authorization`,
///   `Proxy-Authorization`, `Cookie` and every header in ``sensitiveHeaders`` are removed from a
///   request redirected to another origin, and stay removed for the hops after it; one an interceptor adds
///   again in `intercept` on such a hop is removed before the transport.
/// - A redirect from `https` to `http` fails with ``APIError/insecureRedirect(from:to:)`` unless
///   ``allowsInsecureRedirects`` is set; even then it goes without credentials.
/// - Credentials never travel in clear text: a request carrying any of those headers to a host over
///   plain `http`, the first as much as a redirect, fails with
///   ``APIError/cleartextCredentials(host:headers:)`` before it is sent, unless the host is a loopback
///   one (`localhost`, `127.0.0.0/8`, `::1`) or listed in ``cleartextCredentialHosts``.
///
/// ```swift
/// let client = NetworkClient { $0.redirectPolicy = RedirectPolicy(sensitiveHeaders: ["X-API-Key"]) }
/// ```
public struct RedirectPolicy: Sendable {
    /// The most redirects one request follows; 20 by default, as URLSession and AsyncHTTPClient.
    /// With 0 none is followed, and the `3xx` comes back as the response.
    public var maximumRedirects: Int
    /// Whether a redirect from `https` to `http` is followed (without credentials); `false` by
    /// default, when it fails with ``APIError/insecureRedirect(from:to:)``.
    public var allowsInsecureRedirects: Bool
    /// Headers of your own that, like `Authorization`, `Proxy-Authorization` and `Cookie`, never
    /// leave their origin (an API key header, say); names are case-insensitive. None by default.
    public var sensitiveHeaders: Set<String>
    /// Hosts to which credentials may go over plain `http` (a development server on your network, say),
    /// besides loopback hosts, which always may; names are case-insensitive. None by default: a
    /// request with credentials to any other `http` host fails with ``APIError/cleartextCredentials(host:headers:)``.
    public var cleartextCredentialHosts: Set<String>
    /// Decides each redirect that the rules above allow: it gets the `3xx` and the request the client
    /// would send next (credentials already removed when the origin changes), and returns the request
    /// to send, changed as you like, or `nil` to stop and hand back the `3xx`. `nil` by default.
    ///
    /// Putting a credential back on a request to another origin is your explicit choice, as curl's
    /// `--location-trusted` is.
    public var onRedirect: (@Sendable (_ response: HTTPResponse, _ next: URLRequest) async -> URLRequest?)?

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumRedirects: The most redirects one request follows; 20 by default, 0 for none.
    ///   - allowsInsecureRedirects: Whether to follow a redirect from `https` to `http`; `false` by default.
    ///   - sensitiveHeaders: Headers of your own that never leave their origin; none by default.
    ///   - cleartextCredentialHosts: Hosts besides loopback ones to which credentials may go over plain
    ///     `http`; none by default.
    ///   - onRedirect: Decides each redirect the rules allow; `nil` (follow it) by default.
    public init(
        maximumRedirects: Int = 20,
        allowsInsecureRedirects: Bool = false,
        sensitiveHeaders: Set<String> = [],
        cleartextCredentialHosts: Set<String> = [],
        onRedirect: (@Sendable (_ response: HTTPResponse, _ next: URLRequest) async -> URLRequest?)? = nil
    ) {
        self.maximumRedirects = maximumRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.sensitiveHeaders = sensitiveHeaders
        self.cleartextCredentialHosts = cleartextCredentialHosts
        self.onRedirect = onRedirect
    }

    /// Up to 20 redirects, never from `https` to `http`, credentials kept within their origin.
    public static let `default` = RedirectPolicy()

    /// No redirect is followed: the `3xx` comes back as the response.
    public static let doNotFollow = RedirectPolicy(maximumRedirects: 0)

    /// The headers that never leave their origin, whatever the policy: `Authorization`,
    /// `Proxy-Authorization` and `Cookie`.
    static let credentialHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie"]
}
