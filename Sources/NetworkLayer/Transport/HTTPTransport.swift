import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one place where NetworkLayer meets an HTTP implementation: it sends a request and hands back
/// the response head with its body as a stream of chunks.
///
/// Every way of sending is built on it: ``APIClient/send(_:as:)`` and ``APIClient/fetch(_:as:)``
/// collect the body, ``APIClient/download(for:to:progress:)`` writes it to a file,
/// ``APIClient/stream(for:bufferLimit:)`` parses it as it arrives, and uploads send
/// ``TransportRequest/bodyFile``. Above the transport sit the interceptors, status validation and
/// decoding; below it, nothing of NetworkLayer. ``URLSessionTransport`` is the default; a test can
/// use `StubTransport` from NetworkLayerTesting, or a transport of its own:
///
/// ```swift
/// struct Canned: HTTPTransport {
///     func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
///         TransportResponse(head: HTTPResponse(statusCode: 200, url: request.urlRequest.url), body: ResponseBody(Data("{}".utf8)))
///     }
/// }
/// let client = NetworkClient(transport: Canned())
/// ```
///
/// What a transport promises:
/// - It returns once the response head has arrived, whatever the status: validation is the client's.
/// - It follows no redirect: a `3xx` comes back like any response, and the client follows it by its
///   ``RedirectPolicy``.
/// - Its body has backpressure where the implementation allows it: a reader that stops reading slows
///   the transfer down instead of failing it (see ``ResponseBody``).
/// - Cancelling the calling task, or the reader abandoning the body, ends the exchange and closes its
///   connection; the error is then ``APIError/cancelled``.
/// - The request's `timeoutInterval` is an idle timeout: the exchange fails with ``APIError/timedOut``
///   when no byte was sent or received for that long (the wait for the response head included).
/// - Errors are ``APIError``s: ``APIError/requestFailed(_:)`` for what the network did.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response head as soon as it arrives, with its body to read.
    /// - Parameter request: What to send, and how long it may stay idle.
    /// - Returns: The response's status, headers and URL (its `body` empty), and the body as it arrives.
    /// - Throws: ``APIError/cancelled``, ``APIError/timedOut``, ``APIError/requestFailed(_:)`` or ``APIError/invalidResponse``.
    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse

    /// Sends `request` and returns the response with its whole body.
    ///
    /// The default implementation collects the body of ``send(_:)``; a transport may implement it
    /// directly when it can do so more cheaply. Either way it collects no more than the request's
    /// ``TransportRequest/maximumBodySize``: past it, it stops the exchange at once.
    /// - Parameter request: What to send, how long it may stay idle, and how much body it may collect.
    /// - Returns: The response with its whole body.
    /// - Throws: As ``send(_:)``; ``APIError/responseTooLarge(_:limit:received:announced:)`` past ``TransportRequest/maximumBodySize``.
    func data(for request: TransportRequest) async throws(APIError) -> HTTPResponse
}

extension HTTPTransport {
    /// Sends `request` with ``send(_:)`` and collects the body, up to its ``TransportRequest/maximumBodySize``.
    public func data(for request: TransportRequest) async throws(APIError) -> HTTPResponse {
        try await send(request).limited(to: request.maximumBodySize, .inMemory, method: request.urlRequest.httpMethod).collected()
    }
}
