import Foundation

/// What an ``HTTPTransport`` answers: the response head, and its body as it arrives.
public struct TransportResponse: Sendable {
    /// The status, headers and URL; its ``HTTPResponse/body`` is empty, since the body is ``body``.
    public var head: HTTPResponse
    /// The body, to read once.
    public var body: ResponseBody

    /// Creates a response from its head and body.
    /// - Parameters:
    ///   - head: The status, headers and URL; a body in it is ignored.
    ///   - body: The body; empty by default.
    public init(head: HTTPResponse, body: ResponseBody = ResponseBody()) {
        self.head = head
        self.body = body
    }

    /// A response whose body is already in memory: the head and body of `response`.
    public init(_ response: HTTPResponse) {
        self.init(head: response, body: ResponseBody(response.body))
    }

    /// The head with the whole body read into it.
    /// - Throws: The ``APIError`` that ended the body.
    public func collected() async throws(APIError) -> HTTPResponse {
        head.with(body: try await body.collect())
    }
}
