import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and collects its body in memory as it arrives, reporting progress: for
    /// bodies too large to hold twice.
    ///
    /// ``APIClient/response(for:)-(Endpoint)`` and ``send(_:as:)`` get the body from `URLSession` whole, and
    /// on Linux FoundationNetworking copies it once more when the task completes, so a large body
    /// briefly takes twice its size. Here each chunk is appended to one buffer as it arrives, and
    /// the peak stays near the body's size (1.01 to 1.03 times it for 200 MB on Linux).
    /// Small requests are cheaper through `send`: this one runs on a delegate-driven transfer
    /// session (see ``APIClient/download(for:to:progress:)-(Endpoint,_,_)``).
    ///
    /// The status is checked as in ``APIClient/response(for:)-(Endpoint)``; every attempt goes through the
    /// ``interceptors``. The timeout (the endpoint's, else the session's `timeoutIntervalForRequest`)
    /// is an idle timeout: it restarts with every chunk received.
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
        try await transferInMemory(
            endpoint.urlRequest(encoder: encoder), body: endpoint.task.uploadBody, progressOfSent: false, progress: progress)
    }
}
