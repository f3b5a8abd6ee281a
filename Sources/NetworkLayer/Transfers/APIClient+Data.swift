import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and collects its body in memory, reporting progress: the same as
    /// ``APIClient/response(for:progress:)``, under its former name.
    @available(*, deprecated, renamed: "response(for:progress:)")
    public func data(
        for endpoint: some Endpoint,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> HTTPResponse {
        try await response(for: endpoint, progress: progress)
    }

    /// Sends `call` and collects its body in memory as it arrives, telling `progress` of every chunk:
    /// the body is appended to one buffer, so a large body exists once, as when the transport
    /// collects it. Progress follows only an accepted response, so an error page or a retried
    /// attempt never shows as progress.
    func collect(
        _ call: Call,
        body prepared: PreparedBody,
        progress handler: @escaping @Sendable (TransferProgress) -> Void
    ) async throws(APIError) -> HTTPResponse {
        let progress = ProgressReporter(handler)
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
