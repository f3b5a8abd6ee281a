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
    ///   - deadline: The call's total deadline in seconds, before the interceptors adapt it; `nil` for none.
    ///   - response: The response an attempt's value carries, for the events: the value itself for
    ///     ``HTTPResponse``, the head of a download or a stream.
    ///   - send: Sends one adapted attempt, through ``intercept(_:context:terminal:)``.
    /// - Returns: The first successful attempt's value.
    /// - Throws: The last attempt's error, an adapter's error, ``APIError/cancelled``,
    ///   ``APIError/deadlineExceeded(_:)``, or the error of a ``RetryDecision/fail(_:)``.
    func run<Value: Sendable>(
        _ request: URLRequest,
        deadline: TimeInterval?,
        response: @escaping @Sendable (Value) -> HTTPResponse,
        send: @escaping @Sendable (URLRequest, RequestContext) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let requestID = RequestContext.nextRequestID()
        let started = DispatchTime.now().uptimeNanoseconds
        emit(.requestStarted(id: requestID, request: request))
        var run: Run<Value>
        do throws(APIError) {
            let seconds = adaptDeadline(deadline, for: request, context: RequestContext(requestID: requestID))
            if let callDeadline = try CallDeadline.make(seconds, since: started) {
                let pipeline = self
                let raced = await callDeadline.run { () async -> Result<Run<Value>, APIError> in
                    .success(await pipeline.attempts(request, requestID: requestID, deadline: callDeadline, response: response, send: send))
                }
                switch raced {
                case .success(let attempts): run = attempts
                case .failure(let error): run = Run(result: .failure(error))
                }
            } else {
                run = await attempts(request, requestID: requestID, deadline: nil, response: response, send: send)
            }
        } catch {
            run = Run(result: .failure(error))
        }
        emit(
            .requestFinished(
                RequestMetrics(
                    requestID: requestID, request: request, response: run.lastResponse, error: run.result.failure,
                    attempts: run.attempts, duration: Self.seconds(since: started)
                )))
        return try run.result.get()
    }

    /// What the attempts of a call came to.
    private struct Run<Value: Sendable>: Sendable {
        var result: Result<Value, APIError>
        var lastResponse: HTTPResponse?
        var attempts = 0
    }

    /// Adapts and sends attempts until one succeeds or no interceptor retries; once `deadline` has
    /// passed, the failure is ``APIError/deadlineExceeded(_:)`` and is not retried.
    private func attempts<Value: Sendable>(
        _ request: URLRequest,
        requestID: Int,
        deadline: CallDeadline?,
        response: (Value) -> HTTPResponse,
        send: (URLRequest, RequestContext) async throws(APIError) -> Value
    ) async -> Run<Value> {
        var errors: [APIError] = []
        var run = Run<Value>(result: .failure(.cancelled))
        loop: while true {
            let context = RequestContext(requestID: requestID, attempt: errors.count + 1, previousErrors: errors)
            let sent: URLRequest
            do throws(APIError) {
                sent = try await adapt(request, context: context)
            } catch {
                run.result = .failure(error)
                break
            }
            run.attempts += 1
            let attemptStarted = DispatchTime.now().uptimeNanoseconds
            var outcome = await Result { () async throws(APIError) in try await send(sent, context) }
            if let deadline { outcome = deadline.outcome(outcome) }
            let duration = Self.seconds(since: attemptStarted)
            let attemptResponse = outcome.response(response)
            run.lastResponse = attemptResponse ?? run.lastResponse
            var decision = RetryDecision.doNotRetry
            if case .failure(let error) = outcome, !error.endsTheCall {
                decision = await retryDecision(sent, for: error, context: context)
            }
            emit(
                .attemptFinished(
                    AttemptMetrics(
                        requestID: requestID, attempt: context.attempt, request: sent, response: attemptResponse,
                        error: outcome.failure, duration: duration, retryDelay: decision.delay
                    )))
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

    /// The call's deadline as the interceptors adapt it, in order, starting from `deadline`.
    private func adaptDeadline(_ deadline: TimeInterval?, for request: URLRequest, context: RequestContext) -> TimeInterval? {
        interceptors.reduce(deadline) { deadline, interceptor in interceptor.adaptDeadline(deadline, for: request, context: context) }
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

    private func emit(_ event: NetworkEvent) {
        for interceptor in interceptors {
            interceptor.observe(event)
        }
    }

    /// The seconds since `start`, an uptime in nanoseconds.
    private static func seconds(since start: UInt64) -> TimeInterval {
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
