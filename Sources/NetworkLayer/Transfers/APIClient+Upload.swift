import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint`, reporting the progress of its body, and decodes the response as `T`.
    ///
    /// Any endpoint works: an ``HTTPTask/uploadFile(_:contentType:urlParameters:)`` body is
    /// streamed from its file, an ``HTTPTask/uploadMultipart(_:urlParameters:)`` form is encoded
    /// as it is sent (see ``MultipartFormData``), and other bodies go as built. Status and decoding
    /// are checked as in ``send(_:as:)``.
    ///
    /// Unlike ``send(_:as:)``, whose timeout is a deadline for the whole exchange, the timeout here
    /// (the endpoint's, else the session's `timeoutIntervalForRequest`) is an idle timeout: it
    /// restarts with every chunk sent or received, so a large upload that keeps moving never times
    /// out. On Linux a redirect that keeps the method sends the body again to the new location, as
    /// ``NetworkClient`` does. Every attempt goes through the ``interceptors``, so a retried upload
    /// sends its body again from the start.
    /// - Parameters:
    ///   - endpoint: The request to send.
    ///   - type: The type to decode; inferred from the context by default.
    ///   - progress: Called with the bytes sent so far, in order and only ever growing, ending with
    ///     all of them; on an arbitrary thread, so keep it quick. `nil` by default.
    /// - Returns: The decoded response.
    /// - Throws: Any ``APIError``; ``APIError/invalidRequest(_:)`` when the file to upload is
    ///   missing or the client's session has a delegate of its own.
    public func upload<T: Decodable>(
        for endpoint: some Endpoint,
        as type: T.Type = T.self,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> T {
        let request = try endpoint.urlRequest(encoder: encoder)
        let body = endpoint.task.uploadBody ?? request.httpBody.map(UploadBody.data)
        var bodiless = request
        bodiless.httpBody = nil
        return try await decode(
            type, from: transferInMemory(body == nil ? request : bodiless, body: body, progressOfSent: true, progress: progress))
    }

    /// Sends `request`, with `body` streamed by an upload task when there is one: the path
    /// ``send(_:as:)`` and the other endpoint methods take for upload tasks.
    func execute(_ request: URLRequest, upload body: UploadBody?) async throws(APIError) -> HTTPResponse {
        guard let body else { return try await execute(request) }
        return try await transferInMemory(request, body: body, progressOfSent: true, progress: nil)
    }

    /// ``fetch(with:as:)`` for a request that may carry an upload task's body.
    func fetch<T: Decodable>(with request: URLRequest, upload body: UploadBody?, as type: T.Type) async -> Result<T, APIError> {
        do throws(APIError) {
            return .success(try await decode(type, from: execute(request, upload: body)))
        } catch {
            return .failure(error)
        }
    }

    /// Sends `request` with `body` through the ``interceptors``, each attempt on a transfer
    /// session, collects the response body in memory and validates the status; `progressOfSent`
    /// says whether progress follows the body sent or the body received.
    func transferInMemory(
        _ request: URLRequest,
        body: UploadBody?,
        progressOfSent: Bool,
        progress handler: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> HTTPResponse {
        let prepared = try await PreparedBody.prepare(body, for: request)
        defer { prepared.cleanUp() }
        let progress = ProgressReporter(handler)
        let acceptableStatusCodes = Transfer.acceptedStatusCodes(acceptableStatusCodes, for: request, carriesBody: prepared.hasBody)
        let direction: BodyCollector.Direction = progressOfSent ? .sent(size: prepared.size) : .received
        return try await RequestPipeline(interceptors: interceptors).run(request, response: \.self) { request async throws(APIError) in
            try await Transfer.followingDeclinedRedirects(request, carriesBody: prepared.hasBody) { request async throws(APIError) in
                let (data, urlResponse) = try await Transfer.run(request, body: prepared, on: session) { continuation in
                    BodyCollector(
                        direction: direction, acceptableStatusCodes: acceptableStatusCodes, progress: progress, continuation: continuation)
                }.get()
                let response = HTTPResponse(urlResponse, body: data)
                guard acceptableStatusCodes.contains(response.statusCode) else {
                    throw .unacceptableStatusCode(response.statusCode, response)
                }
                return response
            }
        }
    }
}
