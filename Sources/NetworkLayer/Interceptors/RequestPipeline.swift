import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs one request through a client's interceptors: adapt, send, and on failure ask whether to
/// retry, as many times as they say, emitting a ``NetworkEvent`` at each step.
struct RequestPipeline {
    let interceptors: [any Interceptor]

    /// Sends `request` with `send` until an attempt succeeds or no interceptor retries it, within
    /// the call's total deadline.
    /// - Parameters:
    ///   - request: The request as built, before any adapter.
    ///   - deadline: The call's total deadline in seconds; `nil` for none.
    ///   - requiresAuthentication: Whether the authenticators authenticate it (``RequestContext/requiresAuthentication``).
    ///   - response: The response an attempt's value carries, for the events: the value itself for
    ///     ``HTTPResponse``, the head of a download or a stream.
    ///   - send: Sends one adapted attempt, through ``intercept(_:context:terminal:)``, counting its
    ///     bytes with the meter.
    /// - Returns: The first successful attempt's value. When its body is still to be read (a stream),
    ///   its ``NetworkEvent/attemptFinished(_:)`` and ``NetworkEvent/requestFinished(_:)`` wait for
    ///   the body's end, so that they count all of it.
    /// - Throws: The last attempt's error, an adapter's error, ``APIError/cancelled``,
    ///   ``APIError/deadlineExceeded(_:)``, or the error of a ``RetryDecision/fail(_:)``.
    func run<Value: Sendable>(
        _ request: URLRequest,
        deadline: TimeInterval?,
        requiresAuthentication: Bool = true,
        response: @escaping @Sendable (Value) -> HTTPResponse,
        send: @escaping @Sendable (URLRequest, RequestContext, TransferMeter) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let requestID = RequestContext.nextRequestID()
        let started = DispatchTime.now().uptimeNanoseconds
        emit(.requestStarted(id: requestID, request: request))
        var run: Run<Value>
        do throws(APIError) {
            if let callDeadline = try CallDeadline.make(deadline, since: started) {
                let pipeline = self
                let raced = await callDeadline.run { () async -> Result<Run<Value>, APIError> in
                    .success(
                        await pipeline.attempts(
                            request, requestID: requestID, requiresAuthentication: requiresAuthentication, deadline: callDeadline,
                            response: response, send: send))
                }
                switch raced {
                case .success(let attempts): run = attempts
                case .failure(let error): run = Run(result: .failure(error))
                }
            } else {
                run = await attempts(
                    request, requestID: requestID, requiresAuthentication: requiresAuthentication, deadline: nil, response: response,
                    send: send)
            }
        } catch {
            run = Run(result: .failure(error))
        }
        let (lastResponse, attempts) = (run.lastResponse, run.attempts)
        let finished = { @Sendable [self] (error: APIError?) in
            emit(
                .requestFinished(
                    RequestMetrics(
                        requestID: requestID, request: request, response: lastResponse, error: error, attempts: attempts,
                        duration: Self.seconds(since: started)
                    )))
        }
        if let open = run.openAttempt, let meter = run.openMeter {
            // A stream: the last attempt, and the call, end with its body. The handler holds neither the
            // meter nor the stream, so that dropping the stream is noticed.
            meter.whenBodyEnds { [self] error, sent, received in
                emit(.attemptFinished(open.metrics(error: error, sent: sent, received: received)))
                finished(error)
            }
        } else {
            finished(run.result.failure)
        }
        return try run.result.get()
    }

    /// What the attempts of a call came to.
    private struct Run<Value: Sendable>: Sendable {
        var result: Result<Value, APIError>
        var lastResponse: HTTPResponse?
        var attempts = 0
        /// The successful attempt whose body is still being read, its event not yet emitted.
        var openAttempt: OpenAttempt?
        /// The meter of that attempt's body.
        var openMeter: TransferMeter?
    }

    /// An attempt whose ``NetworkEvent/attemptFinished(_:)`` waits for the end of its body.
    private struct OpenAttempt: Sendable {
        let requestID: Int
        let attempt: Int
        let request: URLRequest
        let response: HTTPResponse?
        let started: UInt64

        /// The attempt's metrics once its body ended with `error` (`nil` at its end), `sent` and `received` bytes.
        func metrics(error: APIError?, sent: Int64, received: Int64) -> AttemptMetrics {
            AttemptMetrics(
                requestID: requestID, attempt: attempt, request: request, response: response, error: error,
                duration: RequestPipeline.seconds(since: started), retryDelay: nil, bytesSent: Int(clamping: sent),
                bytesReceived: Int(clamping: received))
        }
    }

    /// Adapts and sends attempts until one succeeds or no interceptor retries; once `deadline` has
    /// passed, the failure is ``APIError/deadlineExceeded(_:)`` and is not retried.
    private func attempts<Value: Sendable>(
        _ request: URLRequest,
        requestID: Int,
        requiresAuthentication: Bool,
        deadline: CallDeadline?,
        response: (Value) -> HTTPResponse,
        send: (URLRequest, RequestContext, TransferMeter) async throws(APIError) -> Value
    ) async -> Run<Value> {
        var errors: [APIError] = []
        var run = Run<Value>(result: .failure(.cancelled))
        loop: while true {
            let context = RequestContext(
                requestID: requestID, attempt: errors.count + 1, previousErrors: errors, requiresAuthentication: requiresAuthentication)
            let sent: URLRequest
            do throws(APIError) {
                sent = try await adapt(request, context: context)
            } catch {
                run.result = .failure(error)
                break
            }
            run.attempts += 1
            let attemptStarted = DispatchTime.now().uptimeNanoseconds
            let meter = TransferMeter()
            var outcome = await Result { () async throws(APIError) in try await send(sent, context, meter) }
            if let deadline { outcome = deadline.outcome(outcome) }
            let duration = Self.seconds(since: attemptStarted)
            let attemptResponse = outcome.response(response)
            run.lastResponse = attemptResponse ?? run.lastResponse
            var decision = RetryDecision.doNotRetry
            if case .failure(let error) = outcome, !error.endsTheCall {
                decision = await retryDecision(sent, for: error, context: context)
            }
            if case .success = outcome, meter.isBodyOpen {
                run.openAttempt = OpenAttempt(
                    requestID: requestID, attempt: context.attempt, request: sent, response: attemptResponse, started: attemptStarted)
                run.openMeter = meter
            } else {
                emit(
                    .attemptFinished(
                        AttemptMetrics(
                            requestID: requestID, attempt: context.attempt, request: sent, response: attemptResponse,
                            error: outcome.failure, duration: duration, retryDelay: decision.delay,
                            bytesSent: Int(clamping: meter.bytesSent),
                            bytesReceived: Int(clamping: meter.bytesReceived)
                        )))
            }
            run.result = outcome
            guard case .failure(let error) = outcome else { break }
            switch decision {
            case .doNotRetry:
                break loop
            case .fail(let replacement):
                run.result = .failure(replacement)
                break loop
            case .retry:
                break
            case .retryAfter(let delay):
                do {
                    try await Task.sleep(nanoseconds: Self.nanoseconds(delay))
                } catch {
                    run.result = .failure(.cancelled)
                    break loop
                }
            }
            errors.append(error)
        }
        if let deadline { run.result = deadline.outcome(run.result) }
        return run
    }

    /// Sends `request` through each interceptor's ``Interceptor/intercept(_:context:next:)``, the
    /// first outermost, and `terminal` (the transport) last.
    func intercept(
        _ request: URLRequest,
        context: RequestContext,
        terminal: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        try await Self.intercept(request, through: interceptors[...], context: context, terminal: terminal)
    }

    private static func intercept(
        _ request: URLRequest,
        through interceptors: ArraySlice<any Interceptor>,
        context: RequestContext,
        terminal: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        guard let first = interceptors.first else { return try await terminal(request) }
        return try await first.intercept(request, context: context) { request async throws(APIError) in
            try await intercept(request, through: interceptors.dropFirst(), context: context, terminal: terminal)
        }
    }

    /// Runs every adapter in order; nothing is adapted (or sent) once the task is cancelled.
    private func adapt(_ request: URLRequest, context: RequestContext) async throws(APIError) -> URLRequest {
        var request = request
        for interceptor in interceptors {
            if Task.isCancelled { throw .cancelled }
            do {
                request = try await interceptor.adapt(request, context: context)
            } catch {
                throw APIError(adapterError: error, interceptor: interceptor)
            }
        }
        if Task.isCancelled { throw .cancelled }
        return request
    }

    /// Asks each interceptor in order until one decides something other than `doNotRetry`.
    private func retryDecision(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        for interceptor in interceptors {
            let decision = await interceptor.retry(request, for: error, context: context)
            if decision != .doNotRetry {
                return Task.isCancelled ? .fail(.cancelled) : decision
            }
        }
        return .doNotRetry
    }

    /// Hands `event` to every interceptor's ``Interceptor/observe(_:)``, in order.
    func emit(_ event: NetworkEvent) {
        for interceptor in interceptors {
            interceptor.observe(event)
        }
    }

    /// The seconds since `start`, an uptime in nanoseconds.
    static func seconds(since start: UInt64) -> TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
    }

    /// `seconds` as nanoseconds, clamped to what `Task.sleep` takes.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return seconds >= Double(UInt64.max) / 1_000_000_000 ? UInt64.max : UInt64(seconds * 1_000_000_000)
    }
}

extension RetryDecision {
    /// The wait before the next attempt: 0 for `retry`, the delay for `retryAfter`, `nil` when there is none.
    fileprivate var delay: TimeInterval? {
        switch self {
        case .retry: 0
        case .retryAfter(let seconds): max(0, seconds)
        case .doNotRetry, .fail: nil
        }
    }
}

extension APIError {
    /// Whether the error ends the call without asking the retriers: the caller cancelled it, or its deadline passed.
    fileprivate var endsTheCall: Bool {
        switch self {
        case .cancelled, .deadlineExceeded: true
        default: false
        }
    }
}

extension Result where Failure == APIError {
    fileprivate var failure: APIError? {
        if case .failure(let error) = self { error } else { nil }
    }

    /// The response, whatever its status: a success's, or the one an unacceptable status carries.
    fileprivate func response(_ responseOf: (Success) -> HTTPResponse) -> HTTPResponse? {
        switch self {
        case .success(let value): responseOf(value)
        case .failure(let error): error.response
        }
    }
}
