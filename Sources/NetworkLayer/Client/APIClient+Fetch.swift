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
    ///
    /// Its timeout is the request's `timeoutInterval` when you changed it from the default of 60
    /// seconds, else the transport's (the session's `timeoutIntervalForRequest`).
    public func fetch<T: Decodable>(with request: URLRequest, as type: T.Type = T.self) async -> Result<T, APIError> {
        await fetch(request, upload: nil, timeout: Self.timeout(of: request), as: type)
    }

    /// Sends `endpoint` and returns the decoded body, throwing the ``APIError`` instead of returning a `Result`.
    public func send<T: Decodable>(_ endpoint: some Endpoint, as type: T.Type = T.self) async throws(APIError) -> T {
        try decode(type, from: await response(for: endpoint))
    }

    /// Sends `endpoint` and returns the decoded body together with the response it came from.
    ///
    /// The value is decoded as in ``send(_:as:)`` (``Empty``, `Data`, `String` and optionals
    /// included); the response keeps the status, the headers and the body as received.
    /// - Parameters:
    ///   - endpoint: The request to send.
    ///   - type: The type to decode; inferred from the context by default.
    /// - Returns: The value with its ``HTTPResponse``.
    /// - Throws: Any ``APIError``; a status outside ``acceptableStatusCodes`` fails as in ``send(_:as:)``.
    public func response<T: Decodable>(for endpoint: some Endpoint, as type: T.Type = T.self) async throws(APIError) -> Response<T> {
        let response = try await response(for: endpoint)
        return Response(value: try decode(type, from: response), response: response)
    }

    /// Sends `endpoint` and returns the response undecoded: status, headers and body.
    /// - Throws: Any ``APIError`` but the decoding ones; a status outside ``acceptableStatusCodes`` still fails.
    public func response(for endpoint: some Endpoint) async throws(APIError) -> HTTPResponse {
        let request = try endpoint.urlRequest(encoder: encoder)
        return try await execute(request, upload: endpoint.task.uploadBody, timeout: Self.timeout(of: request, setBy: endpoint))
    }

    /// Sends a request you built yourself and returns the response undecoded.
    public func response(for request: URLRequest) async throws(APIError) -> HTTPResponse {
        try await execute(request, upload: nil, timeout: Self.timeout(of: request))
    }

    /// Sends `request` (with an upload's body beside it) and collects the response in memory: the
    /// path under every call that decodes or returns a whole body.
    func execute(_ request: URLRequest, upload: UploadBody?, timeout: TimeInterval?) async throws(APIError) -> HTTPResponse {
        // Most requests carry no upload: they skip preparing one.
        let prepared = upload == nil ? PreparedBody.none : try await PreparedBody.prepare(upload, for: request)
        defer { prepared.cleanUp() }
        return try await perform(request, body: prepared, timeout: timeout, delivery: .buffered, response: \.self) {
            received async throws(APIError) in
            try await received.collected()
        }
    }

    /// Sends `request` and decodes its body as `T`, as a `Result`.
    func fetch<T: Decodable>(_ request: URLRequest, upload: UploadBody?, timeout: TimeInterval?, as type: T.Type) async -> Result<
        T, APIError
    > {
        do throws(APIError) {
            return .success(try decode(type, from: await execute(request, upload: upload, timeout: timeout)))
        } catch {
            return .failure(error)
        }
    }

    /// Decodes `response`'s body as `T`, with `Empty`, `Data`, `String` and optionals handled specially.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(APIError) -> T {
        try ResponseDecoding.decode(type, from: response.body, using: decoder)
    }
}
