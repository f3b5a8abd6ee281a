import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Endpoint {
    /// Builds the `URLRequest` this endpoint describes, without sending it.
    ///
    /// The URL is `base` and `path` joined with exactly one `/`, the path percent-encoded, and the
    /// task's URL parameters appended to any query `base` carries. A relative `base` (empty, or a path
    /// such as `"/v2"`) is first resolved against `baseURL` the same way: its path after the base
    /// URL's, its query after the base URL's; an absolute `base` ignores `baseURL`. Headers are the endpoint's, then the
    /// task's additional headers; a body encoder sets `Content-Type` only if none was set. An upload
    /// task (``HTTPTask/uploadFile(_:contentType:urlParameters:)``, ``HTTPTask/uploadMultipart(_:urlParameters:)``)
    /// sets its `Content-Type` but leaves the body out: the client streams it when sending.
    /// - Parameters:
    ///   - baseURL: What a relative `base` resolves against, as ``ClientConfiguration/baseURL``; `nil` (none) by default.
    ///   - encoder: The encoder for ``HTTPTask/requestJSONBody(_:urlParameters:)``; a plain `JSONEncoder()` by default.
    /// - Throws: ``APIError/invalidURL(_:)`` (also for a relative `base` without a `baseURL`),
    ///   ``APIError/invalidRequest(_:)`` or ``APIError/encodingFailed(_:)``.
    public func urlRequest(baseURL: URL? = nil, encoder: JSONEncoder = JSONEncoder()) throws(APIError) -> URLRequest {
        try builtRequest(baseURL: baseURL, encoder: encoder, timeout: options.timeout).request
    }

    /// ``urlRequest(baseURL:encoder:)`` with the body an upload task streams beside it, from one reading of ``task``.
    /// `timeout` is the options' idle timeout, read by the caller with the rest of them.
    func builtRequest(baseURL: URL?, encoder: JSONEncoder, timeout: TimeInterval?) throws(APIError) -> (
        request: URLRequest, upload: UploadBody?
    ) {
        guard method.isValidToken else {
            throw .invalidRequest("'\(method.rawValue)' is not a valid HTTP method token")
        }
        let content = try RequestContent(task: task, encoder: encoder, formEncoder: urlParameterEncoder)
        let method = self.method.normalized
        if content.body != nil || content.upload != nil, !method.allowsRequestBody {
            throw .bodyNotAllowed(method)
        }
        let query = try content.urlParameters.map { parameters throws(APIError) in
            try urlParameterEncoder.serializer.serialize(parameters)
        }
        let base = try URLBuilder.absoluteBase(base, against: baseURL)
        var request = URLRequest(url: try URLBuilder.url(base: base, path: path, query: query ?? []))
        if method != .get {
            // A URLRequest is a GET already, and setting the method costs more than building the URL.
            // The normalized token, so that every platform sends what FoundationNetworking sends.
            request.httpMethod = method.rawValue
        }
        if let timeout {
            guard timeout.isFinite, timeout > 0 else {
                throw .invalidRequest("timeout must be a positive number of seconds, not \(timeout)")
            }
            // A URLRequest has 60 s already, and setting it copies the request.
            if timeout != defaultRequestTimeout { request.timeoutInterval = timeout }
        }

        let headers = headers.merging(content.headers)
        if let invalid = headers.firstInvalidField {
            throw .invalidRequest(
                "header '\(invalid.name)' cannot be sent: names must be tokens and values must not contain CR, LF or NUL"
            )
        }
        for header in headers {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if let body = content.body {
            request.httpBody = body.data
            request.setContentTypeIfMissing(body.contentType)
        }
        return (request, content.upload)
    }
}

/// What an ``HTTPTask`` contributes to a request, worked out before the request exists.
private struct RequestContent {
    var urlParameters: Parameters?
    var headers = HTTPHeaders()
    var body: (data: Data, contentType: String)?
    var upload: UploadBody?

    init(task: HTTPTask, encoder: JSONEncoder, formEncoder: URLParameterEncoder) throws(APIError) {
        switch task {
        case .request:
            break
        case .requestParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            self.urlParameters = urlParameters
            body = try Self.encode(bodyParameters, as: bodyEncoding, formEncoder: formEncoder)
        case .requestParametersAndHeaders(let bodyParameters, let bodyEncoding, let urlParameters, let additional):
            self.urlParameters = urlParameters
            headers = additional
            body = try Self.encode(bodyParameters, as: bodyEncoding, formEncoder: formEncoder)
        case .requestJSONBody(let value, let urlParameters):
            self.urlParameters = urlParameters
            do {
                body = (try encoder.encode(value), JSONParameterEncoder.contentType)
            } catch let error as EncodingError {
                throw .encodingFailed(error.summary(encoding: type(of: value)))
            } catch {
                throw .encodingFailed("\(type(of: value)): \(error)")
            }
        case .requestData(let data, let contentType):
            headers.contentType = contentType
            body = (data, contentType)
        case .uploadFile(let fileURL, let contentType, let urlParameters):
            self.urlParameters = urlParameters
            headers.contentType = contentType
            upload = .file(fileURL)
        case .uploadMultipart(let form, let urlParameters):
            self.urlParameters = urlParameters
            headers.contentType = form.contentType
            upload = .multipart(form)
        }
    }

    private static func encode(
        _ parameters: Parameters?,
        as encoding: BodyEncoding,
        formEncoder: URLParameterEncoder
    ) throws(APIError) -> (data: Data, contentType: String)? {
        guard let parameters else { return nil }
        switch encoding {
        case .json:
            return (try JSONParameterEncoder.data(for: parameters), JSONParameterEncoder.contentType)
        case .formURLEncoded:
            return (Data(try formEncoder.serializer.serialize(parameters)), URLParameterEncoder.formContentType)
        }
    }
}
