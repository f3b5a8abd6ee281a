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
    ///   - consume: Makes the call's value of an accepted response: decodes it, writes it to a file, streams it.
    /// - Throws: The call's ``APIError``; for a status outside the acceptable ones, the validation hooks'
    ///   error when they throw one (see ``ClientConfiguration/validate``), run once the interceptors are done.
    func perform<Value: Sendable>(
        _ call: Call,
        body: PreparedBody = .none,
        delivery: BodyDelivery,
        limit: ResponseLimits.Kind = .inMemory,
        sendProgress: (@Sendable (Int64, Int64?) -> Void)? = nil,
        response: @escaping @Sendable (Value) -> HTTPResponse,
        consume: @escaping @Sendable (TransportResponse) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        do {
            return try await attempts(
                call, body: body, delivery: delivery, limit: limit, sendProgress: sendProgress, response: response,
                consume: consume)
        } catch {
            throw validating(error, for: call)
        }
    }

    /// ``perform(_:body:delivery:limit:sendProgress:response:consume:)`` but for the validation hooks.
    private func attempts<Value: Sendable>(
        _ call: Call,
        body: PreparedBody,
        delivery: BodyDelivery,
        limit: ResponseLimits.Kind,
        sendProgress: (@Sendable (Int64, Int64?) -> Void)?,
        response: @escaping @Sendable (Value) -> HTTPResponse,
        consume: @escaping @Sendable (TransportResponse) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let interceptors = call.interceptors
        let transport = transport
        let pipeline = RequestPipeline(interceptors: interceptors)
        let request = call.request
        @Sendable func run(_ sent: URLRequest, _ context: RequestContext?, _ meter: TransferMeter?) async throws(APIError) -> Value {
            var progress = sendProgress
            if let meter {
                progress = { sent, expected in
                    meter.reportSent(sent)
                    sendProgress?(sent, expected)
                }
            }
            let transportRequest = try body.transportRequest(for: sent, sendProgress: progress)
            let received = try await Self.attempt(
                transportRequest, call: call, delivery: delivery, limit: limit, transport: transport,
                chain: context.map { (pipeline, $0) }, meter: meter,
                bodySize: meter == nil ? nil : body.size ?? sent.httpBody.map { Int64($0.count) })
            return try await consume(received)
        }
        if interceptors.isEmpty {
            // With nothing to adapt, intercept, retry or observe, the pipeline would only cost time.
            guard let deadline = try CallDeadline.make(call.deadline) else { return try await run(request, nil, nil) }
            return try await deadline.run { () async -> Result<Value, APIError> in
                await Result { () async throws(APIError) in try await run(request, nil, nil) }
            }.get()
        }
        return try await pipeline.run(
            request, deadline: call.deadline, requiresAuthentication: call.requiresAuthentication, response: response
        ) { sent, context, meter async throws(APIError) in
            try await run(sent, context, meter)
        }
    }

    /// One attempt, after its adapters: `request` through the interceptors' chain to the transport,
    /// then each redirect its call's policy follows, through the chain again with
    /// ``RequestContext/redirectedFrom`` set; then the status checked against the call's acceptable
    /// ones and the body held to the call's limit of `limit`. Every call's attempts take this path:
    /// ``execute(_:progress:)`` calls it directly for a call with nothing around it, and
    /// ``perform(_:body:delivery:limit:sendProgress:response:consume:)`` within its retries and deadline.
    /// - Parameters:
    ///   - chain: The interceptors and the attempt's context; `nil` for a call without interceptors.
    ///   - meter: Counts the attempt's bytes, for its events; `nil` without interceptors.
    ///   - bodySize: The request body's size, counted as sent once the transport answered without reporting progress.
    /// - Returns: The response of the last exchange, its body still to be read, held to the limit.
    @inline(__always)
    static func attempt(
        _ request: TransportRequest,
        call: Call,
        delivery: BodyDelivery,
        limit: ResponseLimits.Kind,
        transport: any HTTPTransport,
        chain: (pipeline: RequestPipeline, context: RequestContext)? = nil,
        meter: TransferMeter? = nil,
        bodySize: Int64? = nil
    ) async throws(APIError) -> TransportResponse {
        var request = request
        let maximumBodySize = call.responseLimits[limit]
        if delivery == .buffered { request.maximumBodySize = maximumBodySize }
        let policy = call.redirectPolicy
        // Whether the last exchange reached the transport rather than an interceptor's own answer.
        var reachedTransport = false
        func hop(_ request: TransportRequest, redirectedFrom: [URL]) async throws(APIError) -> TransportResponse {
            reachedTransport = false
            // A hop that left the attempt's origin.
            let isCrossOrigin =
                redirectedFrom.first.flatMap { origin in request.urlRequest.url.map { !RedirectPolicy.sameOrigin(origin, $0) } } ?? false
            // Below every interceptor, so that the checks see what they added (a jar's `Cookie`).
            func terminal(_ urlRequest: URLRequest) async throws(APIError) -> TransportResponse {
                var request = request
                let entering = request.urlRequest
                request.urlRequest = urlRequest
                if isCrossOrigin { policy.removeCredentials(from: &request.urlRequest, addedSince: entering) }
                try policy.checkCleartextCredentials(request.urlRequest)
                reachedTransport = true
                return switch delivery {
                case .buffered: TransportResponse(try await transport.data(for: request))
                case .streamed: try await transport.send(request)
                }
            }
            guard let (pipeline, attemptContext) = chain else { return try await terminal(request.urlRequest) }
            let started = DispatchTime.now().uptimeNanoseconds
            let context = attemptContext.exchange(streamed: delivery == .streamed, redirectedFrom: redirectedFrom, transport: transport)
            let received = try await pipeline.intercept(request.urlRequest, context: context, terminal: terminal)
            pipeline.emit(
                .exchangeFinished(
                    ExchangeMetrics(
                        context: context, request: request.urlRequest, response: received.head, reachedTransport: reachedTransport,
                        duration: RequestPipeline.seconds(since: started))))
            return received
        }
        var received = try await policy.send(request, through: hop)
        if let meter, reachedTransport {
            meter.transportAnswered(bodySize: bodySize)
            received.body = received.body.metered(by: meter)
        }
        if !call.acceptableStatusCodes.contains(received.head.statusCode) {
            try await reject(received, delivery: delivery)
        }
        return try received.limited(to: maximumBodySize, limit, method: request.urlRequest.httpMethod)
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

    /// The most of a rejected body kept for its error; a streamed transfer stops there.
    static var rejectedBodyLimit: Int { 64 * 1024 }
}

/// The timeout a `URLRequest` has when nobody sets one, as `URLSessionConfiguration`'s `timeoutIntervalForRequest`.
let defaultRequestTimeout: TimeInterval = 60
