import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and returns its body as a ``ResponseStream`` to read as it arrives: chunks,
    /// ``ResponseStream/lines``, ``ResponseStream/lines(as:decoder:)`` or ``ResponseStream/events``.
    ///
    /// It returns once the response head has arrived and its status is in ``ClientConfiguration/acceptableStatusCodes``;
    /// any other status fails here, before the first element, with
    /// ``APIError/unacceptableStatusCode(_:_:)`` and up to 64 KiB of its body.
    ///
    /// The timeout (the endpoint's, else the transport's) is an idle timeout, as for every call: the
    /// stream fails with ``APIError/timedOut`` only when nothing arrives for that long, so a stream
    /// that keeps moving (a Server-Sent Events heartbeat, say) lives as long as it is read; time the
    /// reader keeps the transfer waiting does not count. Cancelling the calling task, breaking out of
    /// the loop or dropping the stream ends the transfer and closes its connection.
    ///
    /// A reader slower than the network slows the transfer down (see ``ResponseStream``).
    ///
    /// Until it returns, every attempt goes through the ``ClientConfiguration/interceptors``, which may retry it; once
    /// the stream is returned, a failure while reading it is not retried.
    /// - Parameters:
    ///   - endpoint: The request to send; an upload task's body is sent too.
    ///   - bufferLimit: The longest line or event ``ResponseStream/lines`` and ``ResponseStream/events``
    ///     read, in bytes; 16 MiB by default.
    /// - Returns: The body, to iterate once.
    /// - Throws: Any ``APIError`` but the decoding ones.
    public func stream(
        for endpoint: some Endpoint,
        bufferLimit: Int = 16 * 1024 * 1024
    ) async throws(APIError) -> ResponseStream {
        try await stream(try makeCall(for: endpoint), bufferLimit: bufferLimit)
    }

    /// Sends a request you built yourself and returns its body as a ``ResponseStream``, like
    /// ``APIClient/stream(for:bufferLimit:)``.
    public func stream(
        with request: URLRequest,
        bufferLimit: Int = 16 * 1024 * 1024
    ) async throws(APIError) -> ResponseStream {
        try await stream(makeCall(for: request), bufferLimit: bufferLimit)
    }

    private func stream(_ call: Call, bufferLimit: Int) async throws(APIError) -> ResponseStream {
        let prepared = try await PreparedBody.prepare(call.upload, for: call.request)
        // Once the head is in, the body has been sent (an open file outlives its name).
        defer { prepared.cleanUp() }
        return try await perform(call, body: prepared, delivery: .streamed, limit: .stream, response: \.response) { received in
            ResponseStream(response: received.head, body: received.body, decoder: call.decoder, bufferLimit: bufferLimit)
        }
    }
}
