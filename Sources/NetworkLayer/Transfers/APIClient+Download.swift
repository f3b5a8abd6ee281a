import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and writes the response body to a file, chunk by chunk, so that memory stays
    /// flat however large the body is.
    ///
    /// The status is checked as soon as the response arrives: one outside ``acceptableStatusCodes``
    /// fails with ``APIError/unacceptableStatusCode(_:_:)`` (with up to 64 KiB of its body) and
    /// writes no file. The body goes to a partial file beside `destination`, renamed into place
    /// only once it is complete, so an existing file there is replaced only by a whole download.
    /// Cancelling (or a failure) deletes the partial file and closes the connection. Every attempt
    /// goes through the ``interceptors``; a retried download starts again from the first byte.
    /// Each chunk is written as it arrives, so a disk slower than the network holds the transfer
    /// back rather than filling memory.
    ///
    /// The timeout (the endpoint's, else the transport's) is an idle timeout, as for every call: it
    /// restarts with every chunk received, so a large download that keeps moving never times out.
    /// - Parameters:
    ///   - endpoint: The request to send; an upload task's body is sent too.
    ///   - destination: Where to put the file, its directory created if needed; by default a new
    ///     file in the temporary directory, which is then yours to move or delete.
    ///   - progress: Called with the bytes received so far and the `Content-Length` when the server
    ///     sent one, in order and only ever growing, ending with all of them; on an arbitrary
    ///     thread, so keep it quick. `nil` by default.
    /// - Returns: Where the file is, with the response's status and headers.
    /// - Throws: Any ``APIError`` but the decoding ones; a file that cannot be written fails with
    ///   ``APIError/requestFailed(_:)`` (`URLError` `.cannotCreateFile`, `.cannotWriteToFile` or `.cannotMoveFile`).
    public func download(
        for endpoint: some Endpoint,
        to destination: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> DownloadedFile {
        try await download(try makeCall(for: endpoint), to: destination, progress: progress)
    }

    /// Sends a request you built yourself and writes the response body to a file, like
    /// ``APIClient/download(for:to:progress:)``.
    public func download(
        with request: URLRequest,
        to destination: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> DownloadedFile {
        try await download(makeCall(for: request), to: destination, progress: progress)
    }

    private func download(
        _ call: Call,
        to destination: URL?,
        progress handler: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> DownloadedFile {
        try DownloadFile.prepareDirectory(for: destination)
        let prepared = try await PreparedBody.prepare(call.upload, for: call.request)
        defer { prepared.cleanUp() }
        let progress = ProgressReporter(handler)
        return try await perform(call, body: prepared, delivery: .streamed, limit: .download, response: \.response) {
            received async throws(APIError) in
            let file = try DownloadFile(destination: destination)
            let expected = received.head.expectedContentLength
            progress.report(0, of: expected)
            do throws(APIError) {
                try await received.body.consume { chunk throws(APIError) in
                    progress.report(try file.write(chunk), of: expected)
                }
                let (url, written) = try file.complete()
                progress.finish(total: written)
                await progress.delivered()
                return DownloadedFile(fileURL: url, response: received.head, byteCount: written)
            } catch {
                file.discard()
                throw error
            }
        }
    }
}
