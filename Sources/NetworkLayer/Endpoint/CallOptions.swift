import Foundation

#if SwiftLog
    import Logging
#endif

/// What one endpoint's calls do differently from the rest of the client's: one value, merged with the
/// client's settings in one place, and carried whole by every request form (a typed ``Request``
/// included), so an option set here is never dropped on the way.
///
/// Every option is `nil` (or `true`) by default, which keeps the client's:
///
/// ```swift
/// enum FileAPI: Endpoint {
///     case export, signIn
///     var path: String { self == .export ? "/export" : "/session" }
///     var options: CallOptions {
///         switch self {
///         case .export: CallOptions(deadline: 600, responseLimits: ResponseLimits(inMemory: 512 * 1024 * 1024))
///         case .signIn: CallOptions(redirectPolicy: .doNotFollow, requiresAuthentication: false)
///         }
///     }
/// }
/// ```
public struct CallOptions: Sendable {
    /// The idle timeout in seconds: an attempt fails with ``APIError/timedOut`` when nothing was sent or
    /// received for that long. `nil` uses the client's ``ClientConfiguration/timeout``.
    public var timeout: TimeInterval?
    /// The total deadline of the call in seconds, in place of the client's ``ClientConfiguration/deadline``;
    /// `.infinity` for none whatever the client's; `nil` uses the client's.
    public var deadline: TimeInterval?
    /// The status codes that count as success, for an API that answers one call with a `404` it
    /// means; `nil` uses the client's ``ClientConfiguration/acceptableStatusCodes``.
    public var acceptableStatusCodes: Set<Int>?
    /// Decodes the responses, for one call whose dates or keys differ from the rest of the API; `nil`
    /// uses the client's ``ClientConfiguration/decoder``.
    public var decoder: JSONDecoder?
    /// How redirects are followed, for one call that must not follow them, say; `nil` uses the
    /// client's ``ClientConfiguration/redirectPolicy``.
    public var redirectPolicy: RedirectPolicy?
    /// How large the response body may grow, for the one call whose answer is larger (or should be
    /// smaller) than the rest; `nil` uses the client's ``ClientConfiguration/responseLimits``.
    public var responseLimits: ResponseLimits?
    /// Whether the client's authenticators put a credential on the requests and refresh it for them;
    /// `true` by default. Say `false` for a sign-in or token-refresh call and for public endpoints:
    /// no credential is added, and a missing or rejected one triggers no refresh. Interceptors read
    /// it as ``RequestContext/requiresAuthentication``.
    public var requiresAuthentication: Bool
    /// Checks the responses before they are decoded, and may throw your own error (say the
    /// `LoginError` a `401` from a login means), which the call then fails with as
    /// ``APIError/validationFailed(_:_:)``. It runs before the client's ``ClientConfiguration/validate``, on
    /// the response the call ends with, whatever its status; `nil` leaves it to the client's.
    public var validateResponse: (@Sendable (HTTPResponse) throws -> Void)?
    /// The route of the endpoint's path with its variable parts as placeholders (`/notes/{id}`), for
    /// the names of spans and a dimension of metrics, which must never carry the path itself (it holds
    /// ids); `nil` (none) by default.
    public var urlTemplate: String?
    #if SwiftLog
        /// The logger of this call, in place of the client's ``ClientConfiguration/logger``: a server's
        /// request logger, say, so that its metadata goes on the call's lines; `nil` uses the client's.
        /// With the package trait `SwiftLog` only.
        public var logger: Logger?
    #endif

    /// Creates options; each one left out keeps the client's setting.
    /// - Parameters:
    ///   - timeout: The idle timeout in seconds; `nil` (the transport's) by default.
    ///   - deadline: The total deadline in seconds; `nil` (the client's) by default.
    ///   - acceptableStatusCodes: The status codes that count as success; `nil` (the client's) by default.
    ///   - decoder: Decodes the responses; `nil` (the client's) by default.
    ///   - redirectPolicy: How redirects are followed; `nil` (the client's) by default.
    ///   - responseLimits: How large the response body may grow; `nil` (the client's) by default.
    ///   - requiresAuthentication: Whether the client's authenticators authenticate the requests; `true` by default.
    ///   - validateResponse: Checks the responses before they are decoded; `nil` (the client's check only) by default.
    ///   - urlTemplate: The route of the endpoint's path, for spans and metrics; `nil` (none) by default.
    public init(
        timeout: TimeInterval? = nil,
        deadline: TimeInterval? = nil,
        acceptableStatusCodes: Set<Int>? = nil,
        decoder: JSONDecoder? = nil,
        redirectPolicy: RedirectPolicy? = nil,
        responseLimits: ResponseLimits? = nil,
        requiresAuthentication: Bool = true,
        validateResponse: (@Sendable (HTTPResponse) throws -> Void)? = nil,
        urlTemplate: String? = nil
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.acceptableStatusCodes = acceptableStatusCodes
        self.decoder = decoder
        self.redirectPolicy = redirectPolicy
        self.responseLimits = responseLimits
        self.requiresAuthentication = requiresAuthentication
        self.validateResponse = validateResponse
        self.urlTemplate = urlTemplate
    }
}
