import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body ready to send, and the temporary file to delete afterwards, if any.
struct PreparedBody: Sendable {
    private enum Source {
        /// The request's own body, if it has one.
        case request
        case data(Data)
        case file(URL, isTemporary: Bool)
    }

    private let source: Source
    /// The bytes to send, when known before sending.
    let size: Int64?

    /// The request as it is, with whatever body it carries.
    static let none = PreparedBody(source: .request, size: nil)

    /// Checks an upload's file, or encodes its form: in memory up to the form's
    /// ``MultipartFormData/encodingMemoryThreshold``, else into a temporary file, in chunks, off the
    /// cooperative threads.
    /// - Throws: ``APIError/invalidRequest(_:)`` for a missing file or a body on a `GET` or `HEAD`,
    ///   ``APIError/encodingFailed(_:)`` for a form that cannot be encoded, ``APIError/cancelled``.
    static func prepare(_ body: UploadBody?, for request: URLRequest) async throws(APIError) -> PreparedBody {
        if body != nil { try checkBodyAllowed(request, hasBody: true) }
        switch body {
        case nil:
            return .none
        case .data(let data):
            return PreparedBody(source: .data(data), size: Int64(data.count))
        case .file(let url):
            return PreparedBody(source: .file(url, isTemporary: false), size: try fileSize(url))
        case .multipart(let form):
            let length = try form.contentLength()
            if length <= form.encodingMemoryThreshold {
                return PreparedBody(source: .data(try form.encoded()), size: length)
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayer-multipart-\(UUID().uuidString)")
            try await write(form, to: url)
            return PreparedBody(source: .file(url, isTemporary: true), size: length)
        }
    }

    /// What a transport sends for `request` with this body: the body in the request, or a file beside it.
    /// - Throws: ``APIError/invalidRequest(_:)`` when the request's method may not carry the body.
    func transportRequest(
        for request: URLRequest,
        sendProgress: (@Sendable (Int64, Int64?) -> Void)?
    ) throws(APIError) -> TransportRequest {
        var transportRequest = TransportRequest(request, sendProgress: sendProgress)
        switch source {
        case .request:
            break
        case .data(let data):
            transportRequest.urlRequest.httpBody = data
        case .file(let url, _):
            transportRequest.urlRequest.httpBody = nil
            transportRequest.bodyFile = url
        }
        try checkBodyAllowed(transportRequest.urlRequest, hasBody: transportRequest.hasBody)
        return transportRequest
    }

    /// Deletes the temporary file a form was written to.
    func cleanUp() {
        if case .file(let url, isTemporary: true) = source {
            try? FileManager.default.removeItem(at: url)
        }
    }

    private static func fileSize(_ url: URL) throws(APIError) -> Int64 {
        var isDirectory: ObjCBool = false
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: url.path),
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
        else {
            throw .invalidRequest("the file to upload, \(url.path), does not exist, is a directory or cannot be read")
        }
        return size.int64Value
    }

    private static func write(_ form: MultipartFormData, to url: URL) async throws(APIError) {
        let cancelled = Locked(false)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, APIError>, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(
                        returning: Result { () throws(APIError) in
                            try form.write(to: url, isCancelled: { cancelled.withLock { $0 } })
                        })
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        try result.get()
    }
}

/// Refuses a body on a method that may not carry one (`GET`, `HEAD`) before anything is sent: the
/// one place the rule is applied to a request about to go out.
/// - Throws: ``APIError/invalidRequest(_:)`` naming the method.
func checkBodyAllowed(_ request: URLRequest, hasBody: Bool) throws(APIError) {
    guard hasBody || request.httpBody != nil || request.httpBodyStream != nil else { return }
    let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
    if !method.allowsRequestBody { throw .bodyNotAllowed(method) }
}
