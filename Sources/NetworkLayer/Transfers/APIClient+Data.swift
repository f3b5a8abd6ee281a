import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and collects its body in memory as it arrives, reporting progress.
    ///
    /// The body is appended to one buffer chunk by chunk, as in ``APIClient/response(for:)-(Endpoint)``, so a
    /// large body exists once (200 MB peaks near 1.0 times its size on Linux); what this adds is the
    /// progress of the body received. The status is checked as in ``APIClient/response(for:)-(Endpoint)``,
    /// and every attempt goes through the ``interceptors``; progress follows only an accepted
    /// response, so an error page or a retried attempt never shows as progress.
    /// - Parameters:
    ///   - endpoint: The request to send; an upload task's body is sent too.
    ///   - progress: Called with the bytes received so far and the `Content-Length` when the
    ///     server sent one, in order and only ever growing, ending with all of them; on an
    ///     arbitrary thread, so keep it quick. `nil` by default.
    /// - Returns: The response with its whole body; decode it with your decoder, or use
    ///   ``HTTPResponse/body`` as it is.
    /// - Throws: Any ``APIError`` but the decoding ones.
    public func data(
        for endpoint: some Endpoint,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> HTTPResponse {
        let call = try makeCall(for: endpoint)
        let prepared = try await PreparedBody.prepare(call.upload, for: call.request)
        defer { prepared.cleanUp() }
        let progress = ProgressReporter(progress)
        return try await perform(call, body: prepared, delivery: .streamed, response: \.self) { received async throws(APIError) in
            let expected = received.head.expectedContentLength
            progress.report(0, of: expected)
            let collected = Locked(Data())
            try await received.body.consume { chunk throws(APIError) in
                let count = collected.withLock { body in
                    body.append(chunk)
                    return body.count
                }
                progress.report(Int64(count), of: expected)
            }
            // Taken out of the box, so that the response holds the only reference and nothing is copied.
            let body = collected.withLock { body in
                defer { body = Data() }
                return body
            }
            progress.finish(total: Int64(body.count))
            await progress.delivered()
            return received.head.with(body: body)
        }
    }
}
