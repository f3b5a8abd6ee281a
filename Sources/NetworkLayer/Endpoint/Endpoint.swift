import Foundation

/// A description of one API call: where it goes, how, and what it carries.
///
/// Describe an API as an enum with one case per call; only `path` is required, and `base` names
/// the server unless the client's ``APIClient/baseURL`` does:
///
/// ```swift
/// enum MovieAPI: Endpoint {
///     case popular(page: Int)
///     var base: String { "https://api.themoviedb.org/3" }
///     var path: String { "/movie/popular" }
///     var task: HTTPTask {
///         switch self {
///         case .popular(let page): .requestParameters(urlParameters: ["page": page])
///         }
///     }
/// }
/// ```
///
/// ``urlRequest(baseURL:encoder:)`` turns an endpoint into a `URLRequest` without sending anything;
/// an ``APIClient`` sends it.
public protocol Endpoint {
    /// The absolute base URL, which may carry a path and a query, for example `"https://api.example.com/v3?lang=en"`;
    /// or a base relative to the client's ``APIClient/baseURL``: a path such as `"/v2"`, or `""` (the default) for
    /// the base URL itself. Send an endpoint with a relative base through a client that has a base URL.
    var base: String { get }
    /// The path appended to `base` with exactly one `/` between them; it is percent-encoded for you, so write it unescaped.
    var path: String { get }
    /// The HTTP method; `.get` by default.
    var method: HTTPMethod { get }
    /// Headers sent with the request; none by default.
    var headers: HTTPHeaders { get }
    /// The parameters and body; `.request` (none) by default.
    var task: HTTPTask { get }
    /// The idle timeout in seconds; `nil` (the default) uses the transport's (the session's `timeoutIntervalForRequest`).
    /// An attempt fails with ``APIError/timedOut`` when nothing was sent or received for that long; see ``deadline`` for the whole call.
    var timeout: TimeInterval? { get }
    /// How URL parameters are written into the query; `URLParameterEncoder()` (`key[]=v`, `true`/`false`) by default.
    var urlParameterEncoder: URLParameterEncoder { get }
    /// How form bodies are written; `FormParameterEncoder()` (`key[]=v`, `true`/`false`) by default.
    var formParameterEncoder: FormParameterEncoder { get }
    /// The status codes that count as success for this endpoint, for an API that answers one call
    /// with a `404` it means; `nil` (the default) uses the client's ``APIClient/acceptableStatusCodes``.
    var acceptableStatusCodes: Set<Int>? { get }
    /// Decodes this endpoint's responses, for one call whose dates or keys differ from the rest of the
    /// API; `nil` (the default) uses the client's ``APIClient/decoder``.
    var decoder: JSONDecoder? { get }
    /// How this endpoint's redirects are followed, for one call that must not follow them, say;
    /// `nil` (the default) uses the client's ``APIClient/redirectPolicy``.
    var redirectPolicy: RedirectPolicy? { get }
    /// The total deadline of this endpoint's calls in seconds, in place of the client's
    /// ``APIClient/deadline``; `.infinity` for none whatever the client's; `nil` (the default) uses the client's.
    var deadline: TimeInterval? { get }
    /// How large this endpoint's response body may grow, for the one call whose answer is larger (or
    /// should be smaller) than the rest; `nil` (the default) uses the client's ``APIClient/responseLimits``.
    var responseLimits: ResponseLimits? { get }
    /// Whether the client's authenticators put a credential on this endpoint's requests and refresh it
    /// for them; `true` by default. Say `false` for a sign-in or token-refresh call and for public
    /// endpoints: no credential is added, and a missing or rejected one triggers no refresh.
    /// Interceptors read it as ``RequestContext/requiresAuthentication``.
    var requiresAuthentication: Bool { get }
    /// Checks this endpoint's responses before they are decoded, and may throw your own error (say the
    /// `LoginError` a `401` from a login means), which the call then fails with as
    /// ``APIError/validationFailed(_:_:)``. It runs before the client's ``APIClient/validate(_:)``, on
    /// the response the call ends with, whatever its status; `nil` (the default) leaves it to the client's.
    var validateResponse: (@Sendable (HTTPResponse) throws -> Void)? { get }
}

extension Endpoint {
    /// `""`: the client's ``APIClient/baseURL``.
    public var base: String { "" }
    /// `.get`.
    public var method: HTTPMethod { .get }
    /// No headers.
    public var headers: HTTPHeaders { HTTPHeaders() }
    /// `.request`: no parameters and no body.
    public var task: HTTPTask { .request }
    /// `nil`: the session's timeout applies.
    public var timeout: TimeInterval? { nil }
    /// `key[]=v` arrays and `true`/`false` bools.
    public var urlParameterEncoder: URLParameterEncoder { URLParameterEncoder() }
    /// `key[]=v` arrays and `true`/`false` bools.
    public var formParameterEncoder: FormParameterEncoder { FormParameterEncoder() }
    /// `nil`: the client's acceptable status codes apply.
    public var acceptableStatusCodes: Set<Int>? { nil }
    /// `nil`: the client's decoder applies.
    public var decoder: JSONDecoder? { nil }
    /// `nil`: the client's redirect policy applies.
    public var redirectPolicy: RedirectPolicy? { nil }
    /// `nil`: the client's deadline applies.
    public var deadline: TimeInterval? { nil }
    /// `nil`: the client's response limits apply.
    public var responseLimits: ResponseLimits? { nil }
    /// `true`: the client's authenticators authenticate the request.
    public var requiresAuthentication: Bool { true }
    /// `nil`: only the client's ``APIClient/validate(_:)`` checks the response.
    public var validateResponse: (@Sendable (HTTPResponse) throws -> Void)? { nil }
}
