import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint` and decodes the body as `T`.
    ///
    /// `T` may be any `Decodable`; ``Empty`` ignores the body, `Data` returns the bytes as
    /// received and `String` their UTF-8 text. Decoding runs off the main actor.
    /// - Parameters:
    ///   - endpoint: The request to send.
    ///   - type: The type to decode; inferred from the context by default.
    /// - Returns: The decoded value, or the ``APIError`` that stopped it.
    public func fetch<T: Decodable>(_ endpoint: some Endpoint, as type: T.Type = T.self) async -> Result<T, APIError> {
        do throws(APIError) {
            return .success(try await send(endpoint, as: type))
        } catch {
            return .failure(error)
        }
    }

    /// Sends a request you built yourself and decodes the body as `T`, like ``fetch(_:as:)``.
    public func fetch<T: Decodable>(with request: URLRequest, as type: T.Type = T.self) async -> Result<T, APIError> {
        do throws(APIError) {
            return .success(try await decode(type, from: execute(request)))
        } catch {
            return .failure(error)
        }
    }

    /// Sends `endpoint` and returns the decoded body, throwing the ``APIError`` instead of returning a `Result`.
    public func send<T: Decodable>(_ endpoint: some Endpoint, as type: T.Type = T.self) async throws(APIError) -> T {
        let request = try endpoint.urlRequest(encoder: encoder)
        return try await decode(type, from: execute(request, upload: endpoint.task.uploadBody))
    }

    /// Sends `endpoint` and returns the response undecoded: status, headers and body.
    /// - Throws: Any ``APIError`` but the decoding ones; a status outside ``acceptableStatusCodes`` still fails.
    public func response(for endpoint: some Endpoint) async throws(APIError) -> HTTPResponse {
        try await execute(endpoint.urlRequest(encoder: encoder), upload: endpoint.task.uploadBody)
    }

    /// Sends a request you built yourself and returns the response undecoded.
    public func response(for request: URLRequest) async throws(APIError) -> HTTPResponse {
        try await execute(request)
    }

    /// Runs `request` through the ``interceptors``, each attempt sent by ``attempt(_:)``: the path
    /// under every public call but the transfers. With no interceptors it is one attempt.
    func execute(_ request: URLRequest) async throws(APIError) -> HTTPResponse {
        let interceptors = interceptors
        // With nothing to adapt, retry or observe, the pipeline would only cost time.
        if interceptors.isEmpty { return try await attempt(request) }
        return try await RequestPipeline(interceptors: interceptors).run(request, response: \.self) { request async throws(APIError) in
            try await attempt(request)
        }
    }

    /// Sends one attempt through the session and validates the status.
    func attempt(_ request: URLRequest) async throws(APIError) -> HTTPResponse {
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        if !method.allowsRequestBody, request.httpBody != nil || request.httpBodyStream != nil {
            throw .bodyNotAllowed(method)
        }
        let (body, urlResponse) = try await session.httpResponse(for: request)
        let response = HTTPResponse(urlResponse, body: body)
        guard acceptableStatusCodes.contains(response.statusCode) else {
            throw .unacceptableStatusCode(response.statusCode, response)
        }
        return response
    }

    /// Decodes `response`'s body as `T`, with `Empty`, `Data`, `String` and optionals handled specially.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(APIError) -> T {
        try ResponseDecoding.decode(type, from: response.body, using: decoder)
    }
}
