import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How an exchange's body is wanted from the transport.
enum BodyDelivery {
    /// Whole, through ``HTTPTransport/data(for:)``: for calls that decode or return it in memory.
    case buffered
    /// As it arrives, through ``HTTPTransport/send(_:)``: for downloads, streams and progress.
    case streamed
}

extension APIClient {
    /// The one path of every call: each attempt adapted, sent through the interceptors' chain to the
    /// ``transport``, its status checked against the call's acceptable status codes, its body held to
    /// the call's limit of `limit`, and its response handed to `consume`; retried as the interceptors
    /// decide, all within the call's total deadline. Without interceptors or a deadline it is one
    /// attempt on the caller's task; ``execute(_:progress:)`` takes that attempt's steps itself for a
    /// call that has no upload or progress either.
    ///
    /// A body the transport collects is held to the limit by the transport as it arrives, whatever its
    /// status (``TransportRequest/maximumBodySize``); once the status is accepted, every body is held
    /// to it here too: a streamed one as `consume` reads it, a whole one (from a transport that does not
    /// honour the limit, or an interceptor) at once.
    /// - Parameters:
    ///   - call: The request as built, with its timeout, deadline, acceptable status codes and response limits.
    ///   - body: A body that goes beside the request (an upload's), prepared.
    ///   - delivery: Whether the transport collects the body or streams it.
    ///   - limit: Which of the call's ``ResponseLimits`` the body is held to: the in-memory one by default.
    ///   - sendProgress: Told of the body going out; `nil` by default.
    ///   - response: The response a value carries, for the ``NetworkEvent``s.
    ///   - exchange: Sends each exchange below the interceptors, through the redirects and the transport
    ///     it is given: a download's resumption adds its `Range` there, out of the adapters' reach. `nil`
    ///     (the default) sends it as it is.
    ///   - consume: Makes the call's value of an accepted response: decodes it, writes it to a file, streams it.
    /// - Throws: The call's ``APIError``; for a status outside the acceptable ones, the validation hooks'
    ///   error when they throw one (see ``APIClient/validate(_:)``), run once the interceptors are done.
    func perform<Value: Sendable>(
        _ call: Call,
        body: PreparedBody = .none,
        delivery: BodyDelivery,
        limit: ResponseLimits.Kind = .inMemory,
        sendProgress: (@Sendable (Int64, Int64?) -> Void)? = nil,
        response: @escaping @Sendable (Value) -> HTTPResponse,
        exchange: ExchangeSender? = nil,
        consume: @escaping @Sendable (TransportResponse) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        do {
            return try await attempts(
                call, body: body, delivery: delivery, limit: limit, sendProgress: sendProgress, response: response,
                exchange: exchange, consume: consume)
        } catch {
            throw validating(error, for: call)
        }
    }

    /// ``perform(_:body:delivery:limit:sendProgress:response:exchange:consume:)`` but for the validation hooks.
    private func attempts<Value: Sendable>(
        _ call: Call,
        body: PreparedBody,
        delivery: BodyDelivery,
        limit: ResponseLimits.Kind,
        sendProgress: (@Sendable (Int64, Int64?) -> Void)?,
        response: @escaping @Sendable (Value) -> HTTPResponse,
        exchange: ExchangeSender?,
        consume: @escaping @Sendable (TransportResponse) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let interceptors = interceptors
        let transport = transport
        let pipeline = RequestPipeline(interceptors: interceptors)
        let request = call.request
        let maximumBodySize = call.responseLimits[limit]
        // `execute(_:progress:)` repeats these steps for a plain call (see there): a step added here goes there too.
        @Sendable func attempt(_ sent: URLRequest, _ context: RequestContext?, _ meter: TransferMeter?) async throws(APIError) -> Value {
            var progress = sendProgress
            if let meter {
                progress = { sent, expected in
                    meter.reportSent(sent)
                    sendProgress?(sent, expected)
                }
            }
            // Without interceptors (no context) nothing adapted the request: its timeout is the call's.
            let timeout = context == nil ? call.timeout : Self.timeout(of: sent, adaptedFrom: request, else: call.timeout)
            var transportRequest = try body.transportRequest(for: sent, timeout: timeout, sendProgress: progress)
            if delivery == .buffered { transportRequest.maximumBodySize = maximumBodySize }
            // Redirects are followed below the interceptors: an adapter's credential is not added
            // again to a request that left its origin.
            func follow(_ request: URLRequest) async throws(APIError) -> TransportResponse {
                var transportRequest = transportRequest
                transportRequest.urlRequest = request
                var received = try await call.redirectPolicy.send(transportRequest) { request async throws(APIError) in
                    switch delivery {
                    case .buffered: TransportResponse(try await transport.data(for: request))
                    case .streamed: try await transport.send(request)
                    }
                }
                if let meter {
                    meter.transportAnswered(bodySize: body.size ?? request.httpBody.map { Int64($0.count) })
                    received.body = received.body.metered(by: meter)
                }
                return received
            }
            func terminal(_ request: URLRequest) async throws(APIError) -> TransportResponse {
                guard let exchange else { return try await follow(request) }
                return try await exchange(request, follow)
            }
            // The chain sees the request as it goes out, an in-memory upload's body included.
            let outgoing = transportRequest.urlRequest
            let received =
                if let context {
                    try await pipeline.intercept(outgoing, context: context.streamed(delivery == .streamed), terminal: terminal)
                } else {
                    try await terminal(outgoing)
                }
            if !call.acceptableStatusCodes.contains(received.head.statusCode) {
                try await Self.reject(received, delivery: delivery)
            }
            return try await consume(received.limited(to: maximumBodySize, limit, method: sent.httpMethod))
        }
        if interceptors.isEmpty {
            // With nothing to adapt, intercept, retry or observe, the pipeline would only cost time.
            guard let deadline = try CallDeadline.make(call.deadline) else { return try await attempt(request, nil, nil) }
            return try await deadline.run { () async -> Result<Value, APIError> in
                await Result { () async throws(APIError) in try await attempt(request, nil, nil) }
            }.get()
        }
        return try await pipeline.run(
            request, deadline: call.deadline, requiresAuthentication: call.requiresAuthentication, response: response
        ) { sent, context, meter async throws(APIError) in
            try await attempt(sent, context, meter)
        }
    }

    /// Fails a response whose status is not acceptable, with up to 64 KiB of its body: a streamed body
    /// is read no further, the rest of a collected one is let go. Called only for such a response, so
    /// that an accepted one costs no asynchronous call. Static, so that the attempt that calls it does
    /// not capture (and copy) the client.
    static func reject(_ received: TransportResponse, delivery: BodyDelivery) async throws(APIError) {
        let body =
            switch delivery {
            case .buffered: rejectedBody(try await received.body.collect())
            case .streamed: try await received.body.prefix(upTo: rejectedBodyLimit)
            }
        throw .unacceptableStatusCode(received.head.statusCode, received.head.with(body: body))
    }

    /// At most ``rejectedBodyLimit`` bytes of a collected body, copied, so that the error does not
    /// hold the whole body.
    static func rejectedBody(_ body: Data) -> Data {
        guard body.count > rejectedBodyLimit else { return body }
        return Data(body.prefix(rejectedBodyLimit))
    }

    /// The idle timeout of a request built by hand: its own when it differs from `URLRequest`'s default
    /// of 60 seconds, else `nil` (the transport's). An endpoint's call takes the endpoint's `timeout`.
    static func timeout(of request: URLRequest) -> TimeInterval? {
        request.timeoutInterval == defaultRequestTimeout ? nil : request.timeoutInterval
    }

    /// The timeout of an attempt: the adapted request's `timeoutInterval` when an interceptor changed
    /// it to a positive number of seconds, else `timeout`.
    static func timeout(of sent: URLRequest, adaptedFrom built: URLRequest, else timeout: TimeInterval?) -> TimeInterval? {
        let adapted = sent.timeoutInterval
        return adapted != built.timeoutInterval && adapted.isFinite && adapted > 0 ? adapted : timeout
    }

    /// The most of a rejected body kept for its error; a streamed transfer stops there.
    static var rejectedBodyLimit: Int { 64 * 1024 }
}

/// Sends one exchange of an attempt, below the interceptors, with the function it is given (which
/// follows the redirects and reaches the transport); see ``APIClient/perform(_:body:delivery:limit:sendProgress:response:exchange:consume:)``.
typealias ExchangeSender =
    @Sendable (
        URLRequest, _ send: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse

/// The timeout a `URLRequest` gets when nobody sets one.
let defaultRequestTimeout: TimeInterval = 60
