import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an ``HTTPTransport`` sends: a `URLRequest` (method, URL, headers and an in-memory body), or
/// its head with a body streamed from a file, and how much of the response body may be collected in
/// memory. The request's `timeoutInterval` is the exchange's idle timeout.
public struct TransportRequest: Sendable {
    /// The request: method, URL and headers, and its body when the body is in memory (`httpBody`,
    /// or a streamed `httpBodyStream`). Its `timeoutInterval` is the longest the exchange may go
    /// without sending or receiving a byte, in seconds, the wait for the response head included: 60
    /// unless set, and none when it is not a positive number. The client sets it from
    /// ``CallOptions/timeout`` or ``ClientConfiguration/timeout``; a request built by hand keeps its own.
    public var urlRequest: URLRequest
    /// A file whose contents are the body, streamed as they are sent (never read whole), in place of
    /// any body of ``urlRequest``; `nil` by default.
    public var bodyFile: URL?
    /// Called as the body goes out, with the bytes sent so far and the total when known; on an
    /// arbitrary thread, so keep it quick. `nil` by default. The client counts
    /// ``AttemptMetrics/bytesSent`` from it, so a transport reports every body it sends.
    public var sendProgress: (@Sendable (_ sent: Int64, _ expected: Int64?) -> Void)?
    /// The most bytes of response body ``HTTPTransport/data(for:)`` collects in memory, counted after
    /// any `Content-Encoding` is undone; `nil` (the default) for no limit. Past it the transport stops
    /// the exchange at once and fails with ``APIError/responseTooLarge(_:limit:received:announced:)`` (kind
    /// ``ResponseLimits/Kind/inMemory``); a `Content-Length` over it may fail as soon as the head
    /// arrives. ``HTTPTransport/send(_:)`` does not read it: the reader of a streamed body counts
    /// for itself. The client sets it from its ``ResponseLimits/inMemory``.
    public var maximumBodySize: Int64?

    /// Creates a request for a transport.
    /// - Parameters:
    ///   - urlRequest: The request, with its body when the body is in memory.
    ///   - bodyFile: A file to stream as the body instead; `nil` by default.
    ///   - sendProgress: Called as the body goes out; `nil` by default.
    ///   - maximumBodySize: The most bytes of response body ``HTTPTransport/data(for:)`` collects;
    ///     `nil` (no limit) by default.
    public init(
        _ urlRequest: URLRequest,
        bodyFile: URL? = nil,
        sendProgress: (@Sendable (_ sent: Int64, _ expected: Int64?) -> Void)? = nil,
        maximumBodySize: Int64? = nil
    ) {
        self.urlRequest = urlRequest
        self.bodyFile = bodyFile
        self.sendProgress = sendProgress
        self.maximumBodySize = maximumBodySize
    }

    /// The idle timeout in seconds: the request's `timeoutInterval`, `nil` (none) when it is not a
    /// positive number.
    var idleTimeout: TimeInterval? {
        let timeout = urlRequest.timeoutInterval
        return timeout.isFinite && timeout > 0 ? timeout : nil
    }

    /// Whether a body goes with the request: a file, or a non-empty or streamed body in ``urlRequest``.
    var hasBody: Bool {
        bodyFile != nil || urlRequest.httpBody.map { !$0.isEmpty } ?? (urlRequest.httpBodyStream != nil)
    }
}
