import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `call` and collects its body in memory as it arrives, telling `progress` of every
    /// chunk: as a ``CollectedBody``, so a large body with a `Content-Length` exists once, as when
    /// the transport collects it, and one stopped at its limit has cost the limit. Progress follows
    /// only an accepted response, so an error page or a retried attempt never shows as progress.
    func collect(
        _ call: Call,
        body prepared: PreparedBody,
        progress handler: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(APIError) -> HTTPResponse {
        let progress = ProgressReporter(handler)
        return try await perform(call, body: prepared, delivery: .streamed, response: \.self) { received async throws(APIError) in
            let expected = received.head.expectedContentLength
            progress.report(0, of: expected)
            let length = received.head.announcedLength
            let collected = Locked(CollectedBody())
            try await received.body.consume { chunk throws(APIError) in
                let count = collected.withLock { body in
                    body.append(chunk, announcedLength: length)
                    return body.count
                }
                progress.report(Int64(count), of: expected)
            }
            // Taken out of the box, so that the response holds the only reference and nothing is copied.
            let body = collected.withLock { $0.take() }
            progress.finish(total: Int64(body.count))
            await progress.delivered()
            return received.head.with(body: body)
        }
    }
}
