import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and returns its body as a ``ResponseStream`` to read as it arrives: chunks,
    /// ``ResponseStream/lines``, ``ResponseStream/lines(as:decoder:)`` or ``ResponseStream/events``.
    ///
    /// It returns once the response head has arrived and its status is in ``acceptableStatusCodes``;
    /// any other status fails here, before the first element, with
    /// ``APIError/unacceptableStatusCode(_:_:)`` and up to 64 KiB of its body.
    ///
    /// The timeout (the endpoint's, else the session's `timeoutIntervalForRequest`) is an idle
    /// timeout: the stream fails with ``APIError/timedOut`` only when nothing arrives for that
    /// long, so a stream that keeps moving (a Server-Sent Events heartbeat, say) lives as long as
    /// it is read. Cancelling the calling task, breaking out of the loop or dropping the stream
    /// ends the transfer and closes its connection.
    ///
    /// The body waits in memory until it is read, up to `bufferLimit` bytes: a reader that falls
    /// further behind than that ends the stream with ``APIError/bufferLimitExceeded(_:)``.
    ///
    /// Until it returns, every attempt goes through the ``interceptors``, which may retry it; once
    /// the stream is returned, a failure while reading it is not retried.
    /// - Parameters:
    ///   - endpoint: The request to send; an upload task's body is sent too.
    ///   - bufferLimit: The most bytes received and not yet read; 16 MiB by default.
    /// - Returns: The body, to iterate once.
    /// - Throws: Any ``APIError`` but the decoding ones.
    public func stream(
        for endpoint: some Endpoint,
        bufferLimit: Int = ResponseStream.defaultBufferLimit
    ) async throws(APIError) -> ResponseStream {
        try await stream(endpoint.urlRequest(encoder: encoder), body: endpoint.task.uploadBody, bufferLimit: bufferLimit)
    }

    /// Sends a request you built yourself and returns its body as a ``ResponseStream``, like
    /// ``APIClient/stream(for:bufferLimit:)-(Endpoint,_)``.
    public func stream(
        for request: URLRequest,
        bufferLimit: Int = ResponseStream.defaultBufferLimit
    ) async throws(APIError) -> ResponseStream {
        try await stream(request, body: nil, bufferLimit: bufferLimit)
    }

    private func stream(_ request: URLRequest, body: UploadBody?, bufferLimit: Int) async throws(APIError) -> ResponseStream {
        let prepared = try await PreparedBody.prepare(body, for: request)
        let acceptableStatusCodes = Transfer.acceptedStatusCodes(acceptableStatusCodes, for: request, carriesBody: prepared.hasBody)
        let decoder = decoder
        do throws(APIError) {
            return try await RequestPipeline(interceptors: interceptors).run(request, response: \.response) {
                request async throws(APIError) in
                try await Transfer.followingDeclinedRedirects(request, carriesBody: prepared.hasBody) { request async throws(APIError) in
                    // Each attempt has a sequence of its own: a failed one finishes its sequence.
                    let (chunks, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
                    let head = try await Transfer.run(request, body: prepared, on: session) { head in
                        StreamReceiver(
                            acceptableStatusCodes: acceptableStatusCodes, body: prepared, bufferLimit: bufferLimit,
                            chunks: continuation, head: head)
                    }.get()
                    continuation.onTermination = { termination in
                        if case .cancelled = termination { head.transfer.cancel(.cancelled) }
                    }
                    return ResponseStream(
                        response: head.response, decoder: decoder, chunks: chunks, transfer: head.transfer, receiver: head.receiver)
                }
            }
        } catch {
            // A stream that was handed out deletes the body's temporary file when its transfer ends.
            prepared.cleanUp()
            throw error
        }
    }
}
