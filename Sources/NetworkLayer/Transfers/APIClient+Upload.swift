import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint`, reporting the progress of its body, and decodes the response as `T`.
    ///
    /// Any endpoint works: an ``HTTPTask/uploadFile(_:contentType:urlParameters:)`` body is
    /// streamed from its file, an ``HTTPTask/uploadMultipart(_:urlParameters:)`` form is encoded
    /// as it is sent (see ``MultipartFormData``), and other bodies go as built. Status, decoding
    /// and the timeout are as in ``send(_:as:)``, which sends upload tasks the same way. Every
    /// attempt goes through the ``ClientConfiguration/interceptors``, so a retried upload sends its body again from
    /// the start.
    /// - Parameters:
    ///   - endpoint: The request to send.
    ///   - type: The type to decode; inferred from the context by default.
    ///   - progress: Called with the bytes sent so far, in order and only ever growing, ending with
    ///     all of them; on an arbitrary thread, so keep it quick. `nil` by default.
    /// - Returns: The decoded response.
    /// - Throws: Any ``APIError``; ``APIError/invalidRequest(_:)`` when the file to upload is missing.
    public func upload<T: Decodable>(
        for endpoint: some Endpoint,
        as type: T.Type = T.self,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> T {
        var call = try makeCall(for: endpoint)
        let body = call.upload ?? call.request.httpBody.map(UploadBody.data)
        call.request.httpBody = nil
        let prepared = try await PreparedBody.prepare(body, for: call.request)
        defer { prepared.cleanUp() }
        let progress = ProgressReporter(progress)
        let size = prepared.size
        let response = try await perform(
            call, body: prepared, delivery: .buffered,
            sendProgress: { sent, expected in progress.report(sent, of: expected ?? size) }, response: \.self
        ) { received async throws(APIError) in
            let response = try await received.collected()
            if let size { progress.finish(total: size) }
            await progress.delivered()
            return response
        }
        try validate(response, for: call)
        return try decode(type, from: response, for: call)
    }
}
