import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A canned answer for a ``StubSession``: a response (status, headers, body) or a transport error, after an optional delay.
public struct StubResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body.
    public var body: Data
    /// The pieces the body is delivered in, one at a time, to test code that streams; `nil` (the
    /// default) delivers ``body`` at once. Set by ``chunked(_:statusCode:headers:delay:)``.
    public var chunks: [Data]?
    /// The error to fail with instead of responding, for example `URLError(.notConnectedToInternet)`.
    public var error: (any Error & Sendable)?
    /// Seconds to wait before answering; a cancelled request stops waiting at once.
    public var delay: TimeInterval

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The status code; `200` by default.
    ///   - headers: The response headers; none by default.
    ///   - body: The body; empty by default.
    ///   - delay: Seconds to wait before answering; `0` by default.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(), delay: TimeInterval = 0) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// A JSON body given as text, with `Content-Type: application/json`.
    public static func json(_ text: String, statusCode: Int = 200, delay: TimeInterval = 0) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"], body: Data(text.utf8), delay: delay)
    }

    /// A JSON body encoded from `value` (keys sorted), with `Content-Type: application/json`.
    /// - Throws: The encoder's error when `value` cannot be encoded.
    public static func json(
        encoding value: some Encodable,
        statusCode: Int = 200,
        delay: TimeInterval = 0
    ) throws -> StubResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return StubResponse(
            statusCode: statusCode,
            headers: ["Content-Type": "application/json"],
            body: try encoder.encode(value),
            delay: delay
        )
    }

    /// A plain-text body with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, statusCode: Int = 200, delay: TimeInterval = 0) -> StubResponse {
        StubResponse(
            statusCode: statusCode, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8), delay: delay)
    }

    /// An empty body with the given status, for example `.status(204)`.
    public static func status(_ statusCode: Int, delay: TimeInterval = 0) -> StubResponse {
        StubResponse(statusCode: statusCode, delay: delay)
    }

    /// A body delivered in pieces, each reaching the session as a chunk of its own, as a slow network
    /// would deliver it: for testing `ResponseStream` and downloads.
    public static func chunked(
        _ chunks: [Data],
        statusCode: Int = 200,
        headers: HTTPHeaders = [:],
        delay: TimeInterval = 0
    ) -> StubResponse {
        var response = StubResponse(statusCode: statusCode, headers: headers, body: chunks.reduce(Data(), +), delay: delay)
        response.chunks = chunks
        return response
    }

    /// A transport failure instead of a response, for example `.failure(URLError(.timedOut))`.
    public static func failure(_ error: any Error & Sendable, delay: TimeInterval = 0) -> StubResponse {
        var response = StubResponse(statusCode: 0, delay: delay)
        response.error = error
        return response
    }
}
