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
        await fetch(makeCall(for: request), as: type)
    }

    /// Sends `endpoint` and returns the decoded body, throwing the ``APIError`` instead of returning a `Result`.
    public func send<T: Decodable>(_ endpoint: some Endpoint, as type: T.Type = T.self) async throws(APIError) -> T {
        let call = try makeCall(for: endpoint)
        return try decode(type, from: await execute(call), for: call)
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
        let call = try makeCall(for: endpoint)
        let response = try await execute(call)
        return Response(value: try decode(type, from: response, for: call), response: response)
    }

    /// Sends `endpoint` and returns the response undecoded: status, headers and body.
    /// - Throws: Any ``APIError`` but the decoding ones; a status outside ``acceptableStatusCodes`` still fails.
    public func response(for endpoint: some Endpoint) async throws(APIError) -> HTTPResponse {
        try await execute(try makeCall(for: endpoint))
    }

    /// Sends a request you built yourself and returns the response undecoded.
    public func response(for request: URLRequest) async throws(APIError) -> HTTPResponse {
        try await execute(makeCall(for: request))
    }

    /// Sends `call` (with an upload's body beside it) and collects the response in memory: the
    /// path under every call that decodes or returns a whole body.
    func execute(_ call: Call) async throws(APIError) -> HTTPResponse {
        // Most requests carry no upload: they skip preparing one.
        let prepared = call.upload == nil ? PreparedBody.none : try await PreparedBody.prepare(call.upload, for: call.request)
        defer { prepared.cleanUp() }
        return try await perform(call, body: prepared, delivery: .buffered, response: \.self) { received async throws(APIError) in
            try await received.collected()
        }
    }

    /// Sends `call` and decodes its body as `T`, as a `Result`.
    func fetch<T: Decodable>(_ call: Call, as type: T.Type) async -> Result<T, APIError> {
        do throws(APIError) {
            return .success(try decode(type, from: await execute(call), for: call))
        } catch {
            return .failure(error)
        }
    }
}
