/// A decoded value together with the response it came from: status, headers and body.
///
/// ``APIClient/response(for:as:)`` returns one when the headers matter as much as the value:
/// a pagination `Link`, an `ETag`, rate-limit headers.
///
/// ```swift
/// let page = try await client.response(for: MovieAPI.popular(page: 1), as: MoviePage.self)
/// print(page.value.results.count, page.headers["X-RateLimit-Remaining"] ?? "?")
/// ```
public struct Response<Value> {
    /// The decoded body.
    public var value: Value
    /// The response `value` was decoded from: status, headers and the body as received.
    public var response: HTTPResponse

    /// Creates a response; the client makes these, so you need this only in tests and stubs.
    init(value: Value, response: HTTPResponse) {
        self.value = value
        self.response = response
    }

    /// The HTTP status code, for example `200`: the response's.
    public var statusCode: Int { response.statusCode }

    /// The response headers, with case-insensitive lookup: the response's.
    public var headers: HTTPHeaders { response.headers }
}

extension Response: Sendable where Value: Sendable {}

extension Response: Equatable where Value: Equatable {}
