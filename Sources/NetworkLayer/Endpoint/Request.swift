import Foundation

/// An endpoint that carries the type its response decodes as, so that ``APIClient/send(_:)``,
/// ``APIClient/fetch(_:)`` and ``APIClient/response(for:)`` infer it.
///
/// Keep describing the API as an enum, and give each call its response type with a static
/// factory; the call site then names neither the enum nor the type:
///
/// ```swift
/// extension Request where Value == MoviePage {
///     static func popular(page: Int) -> Self { Request(MovieAPI.popular(page: page)) }
/// }
///
/// let page = try await client.send(.popular(page: 1))   // a MoviePage
/// ```
///
/// A request can also be described on its own, without an enum:
/// `Request<Movie>(base: "https://api.themoviedb.org/3", path: "/movie/550")`, or
/// `Request<Movie>(path: "/movie/550")` for a client with a base URL.
public struct Request<Value: Decodable>: Endpoint, Sendable {
    /// The absolute base URL, or one relative to the client's base URL; see ``Endpoint/base``.
    public var base: String
    /// The path appended to ``base``; see ``Endpoint/path``.
    public var path: String
    /// The HTTP method; `.get` unless given.
    public var method: HTTPMethod
    /// Headers sent with the request; none unless given.
    public var headers: HTTPHeaders
    /// The parameters and body; `.request` (none) unless given.
    public var task: HTTPTask
    /// How URL and form parameters are written; `URLParameterEncoder()` unless given.
    public var urlParameterEncoder: URLParameterEncoder
    /// What its calls do differently from the client's; `CallOptions()` (the client's settings) unless given.
    public var options: CallOptions

    /// Describes a request from its parts.
    /// - Parameters:
    ///   - base: The absolute base URL, for example `"https://api.themoviedb.org/3"`, or one relative to the
    ///     client's ``ClientConfiguration/baseURL``; `""` (the client's base URL) by default.
    ///   - path: The path appended to `base`, unescaped.
    ///   - method: The HTTP method; `.get` by default.
    ///   - headers: Headers sent with the request; none by default.
    ///   - task: The parameters and body; `.request` (none) by default.
    ///   - options: What its calls do differently from the client's (a timeout, a deadline, no
    ///     authentication for a sign-in call…); `CallOptions()` (the client's settings) by default.
    ///   - type: The type the response decodes as; inferred from the context by default.
    public init(
        base: String = "",
        path: String,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        task: HTTPTask = .request,
        options: CallOptions = CallOptions(),
        as type: Value.Type = Value.self
    ) {
        self.base = base
        self.path = path
        self.method = method
        self.headers = headers
        self.task = task
        self.options = options
        urlParameterEncoder = URLParameterEncoder()
    }

    /// The request `endpoint` describes, with its response decoded as `Value`.
    ///
    /// Every requirement of the endpoint is read once, here, and kept: its options as one value.
    /// - Parameters:
    ///   - endpoint: The call, for example a case of your API's enum.
    ///   - type: The type the response decodes as; inferred from the context by default.
    public init(_ endpoint: some Endpoint, as type: Value.Type = Value.self) {
        base = endpoint.base
        path = endpoint.path
        method = endpoint.method
        headers = endpoint.headers
        task = endpoint.task
        urlParameterEncoder = endpoint.urlParameterEncoder
        options = endpoint.options
    }
}
