import Foundation

/// A description of one API call: where it goes, how, and what it carries.
///
/// Describe an API as an enum with one case per call; only `path` is required, and `base` names
/// the server unless the client's ``ClientConfiguration/baseURL`` does:
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
    /// or a base relative to the client's ``ClientConfiguration/baseURL``: a path such as `"/v2"`, or `""` (the default) for
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
    /// How URL parameters are written into the query, and form parameters into a body;
    /// `URLParameterEncoder()` (`key[]=v`, `true`/`false`) by default.
    var urlParameterEncoder: URLParameterEncoder { get }
    /// What this endpoint's calls do differently from the client's: their idle timeout and total
    /// deadline, accepted statuses, decoder, redirect policy, response limits, whether they are
    /// authenticated, and a check of their responses. `CallOptions()` (the client's settings for
    /// all) by default.
    var options: CallOptions { get }
}

extension Endpoint {
    /// `""`: the client's ``ClientConfiguration/baseURL``.
    public var base: String { "" }
    /// `.get`.
    public var method: HTTPMethod { .get }
    /// No headers.
    public var headers: HTTPHeaders { HTTPHeaders() }
    /// `.request`: no parameters and no body.
    public var task: HTTPTask { .request }
    /// `key[]=v` arrays and `true`/`false` bools.
    public var urlParameterEncoder: URLParameterEncoder { URLParameterEncoder() }
    /// `CallOptions()`: the client's settings.
    public var options: CallOptions { CallOptions() }
}
