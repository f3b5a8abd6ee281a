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
        head.with(body: try await body.collect(announcedLength: head.announcedLength))
    }

    /// This response with its body held to `limit` bytes of `kind`: it fails at once when the body is
    /// whole and longer, or when the head announces a longer one (ending the transfer unread), else as
    /// soon as more arrives than the limit.
    /// - Parameters:
    ///   - limit: The most bytes of body; `nil` for no limit.
    ///   - kind: Which limit it is, for the error.
    ///   - method: The request's method (a `HEAD`'s `Content-Length` announces no body).
    /// - Throws: ``APIError/responseTooLarge(_:limit:received:announced:)`` when the body, or the head, says it is longer than `limit`.
    func limited(to limit: Int64?, _ kind: ResponseLimits.Kind, method: String?) throws(APIError) -> TransportResponse {
        guard let limit else { return self }
        if let size = body.wholeSize {
            // Its size is known: the head need not be read.
            if size > limit { throw .responseTooLarge(kind, limit: limit, received: size) }
            return self
        }
        let length = head.expectedContentLength
        if ResponseLimits.isAnnounced(
            over: limit, length: length, statusCode: head.statusCode, method: method, contentEncoding: head.headers["Content-Encoding"]),
            let length
        {
            body.cancel()
            throw .responseTooLarge(kind, limit: limit, received: length, announced: true)
        }
        return TransportResponse(head: head, body: body.limited(to: limit, kind))
    }
}
