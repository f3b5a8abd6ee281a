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
    /// Its idle timeout is its own `timeoutInterval` (60 seconds unless you set it), not
    /// ``ClientConfiguration/timeout``.
    public func fetch<T: Decodable>(with request: URLRequest, as type: T.Type = T.self) async -> Result<T, APIError> {
        await fetch(makeCall(for: request), as: type)
    }

    /// Sends `endpoint` and returns the decoded body, throwing the ``APIError`` instead of returning a `Result`.
    public func send<T: Decodable>(_ endpoint: some Endpoint, as type: T.Type = T.self) async throws(APIError) -> T {
        let call = try makeCall(for: endpoint)
        return try decode(type, from: await execute(call), for: call)
    }

    /// Sends a request you built yourself and returns the decoded body, like ``send(_:as:)``; its
    /// timeout is as in ``fetch(with:as:)``.
    public func send<T: Decodable>(with request: URLRequest, as type: T.Type = T.self) async throws(APIError) -> T {
        let call = makeCall(for: request)
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
    /// - Throws: Any ``APIError``; a status outside ``ClientConfiguration/acceptableStatusCodes`` fails as in ``send(_:as:)``.
    public func response<T: Decodable>(for endpoint: some Endpoint, as type: T.Type = T.self) async throws(APIError) -> Response<T> {
        let call = try makeCall(for: endpoint)
        let response = try await execute(call)
        return Response(value: try decode(type, from: response, for: call), response: response)
    }

    /// Sends a request you built yourself (a pagination link to follow, say) and returns the decoded
    /// body with the response it came from, like ``response(for:as:)``; its timeout is as in ``fetch(with:as:)``.
    public func response<T: Decodable>(with request: URLRequest, as type: T.Type = T.self) async throws(APIError) -> Response<T> {
        let call = makeCall(for: request)
        let response = try await execute(call)
        return Response(value: try decode(type, from: response, for: call), response: response)
    }

    /// Sends `endpoint` and returns the response undecoded: status, headers and body.
    ///
    /// The body is collected as it arrives, the same way ``send(_:as:)`` collects it: a large body
    /// with a `Content-Length` exists once (200 MB peaks near 1.2 times its size on Linux), one
    /// without is held twice while its chunks are joined at its end, up to the
    /// call's ``ResponseLimits/inMemory`` (64 MiB by default): past it the call fails with
    /// ``APIError/responseTooLarge(_:limit:received:announced:)``.
    /// - Parameters:
    ///   - endpoint: The request to send; an upload task's body is sent too.
    ///   - progress: Called with the bytes received so far and the `Content-Length` when the
    ///     server sent one, in order and only ever growing, ending with all of them; on an
    ///     arbitrary thread, so keep it quick. It follows only an accepted response, so an error
    ///     page or a retried attempt never shows as progress. `nil` by default.
    /// - Returns: The response with its whole body; decode it with your decoder, or use
    ///   ``HTTPResponse/body`` as it is.
    /// - Throws: Any ``APIError`` but the decoding ones; a status outside ``ClientConfiguration/acceptableStatusCodes`` still fails.
    public func response(
        for endpoint: some Endpoint,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> HTTPResponse {
        try await execute(try makeCall(for: endpoint), progress: progress)
    }

    /// Sends a request you built yourself and returns the response undecoded, like
    /// ``APIClient/response(for:progress:)``.
    public func response(
        with request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> HTTPResponse {
        try await execute(makeCall(for: request), progress: progress)
    }

    /// Sends `call` (with an upload's body beside it) and collects the response in memory, checked by
    /// the validation hooks: the path under every call that decodes or returns a whole body. Without `progress` the transport
    /// collects the body; with it, the body is collected here chunk by chunk, as a ``CollectedBody`` too.
    func execute(_ call: Call, progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws(APIError) -> HTTPResponse {
        if progress == nil, call.upload == nil, call.deadline == nil, call.interceptors.isEmpty {
            // The most common call, with nothing to adapt, retry or observe and no deadline, upload or
            // progress, takes its one attempt here, without the asynchronous layers that interceptors
            // and deadlines need: 3–6 K instructions a request (see the Performance article).
            let response: HTTPResponse
            do throws(APIError) {
                let request = try PreparedBody.none.transportRequest(for: call.request, sendProgress: nil)
                response = try await Self.attempt(request, call: call, delivery: .buffered, limit: .inMemory, transport: transport)
                    .collected()
            } catch {
                throw validating(error, for: call)
            }
            try validate(response, for: call)
            return response
        }
        // Most requests carry no upload: they skip preparing one.
        let prepared = call.upload == nil ? PreparedBody.none : try await PreparedBody.prepare(call.upload, for: call.request)
        defer { prepared.cleanUp() }
        let response =
            if let progress {
                try await collect(call, body: prepared, progress: progress)
            } else {
                try await perform(call, body: prepared, delivery: .buffered, response: \.self) { received async throws(APIError) in
                    try await received.collected()
                }
            }
        try validate(response, for: call)
        return response
    }

    /// Sends `call` and decodes its body as `T`, as a `Result`.
    func fetch<T: Decodable>(_ call: Call, as type: T.Type) async -> Result<T, APIError> {
        do throws(APIError) {
            return .success(try decode(type, from: await execute(call), for: call))
        } catch {
            return .failure(error)
        }
    }

    /// Decodes the body of `response` as `T` with this client's ``ClientConfiguration/decoder``, as the sending calls do:
    /// ``Empty``, `Data`, `String` and optionals included, and a failure that names the type and the
    /// coding path (``APIError/decodingFailed(_:body:error:)``) or says the body was empty
    /// (``APIError/invalidData``).
    ///
    /// For a response you hold already, from ``response(for:progress:)`` or a stub.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from response: HTTPResponse) throws(APIError) -> T {
        try response.decode(type, using: configuration.decoder)
    }
}
