import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs one request through a client's interceptors: adapt, send, and on failure ask whether to
/// retry, as many times as they say, emitting a ``NetworkEvent`` at each step.
struct RequestPipeline {
    let interceptors: [any Interceptor]

    /// Sends `request` with `send` until an attempt succeeds or no interceptor retries it.
    /// - Parameters:
    ///   - request: The request as built, before any adapter.
    ///   - response: The response an attempt's value carries, for the events: the value itself for
    ///     ``HTTPResponse``, the head of a download or a stream.
    ///   - send: Sends one adapted attempt, through ``intercept(_:context:terminal:)``.
    /// - Returns: The first successful attempt's value.
    /// - Throws: The last attempt's error, an adapter's error, ``APIError/cancelled``, or the error of a ``RetryDecision/fail(_:)``.
    func run<Value>(
        _ request: URLRequest,
        response: (Value) -> HTTPResponse,
        send: (URLRequest, RequestContext) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let requestID = RequestContext.nextRequestID()
        let started = Self.now()
        emit(.requestStarted(id: requestID, request: request))
        var errors: [APIError] = []
        var lastResponse: HTTPResponse?
        var outcome: Result<Value, APIError>
        var attempts = 0
        loop: while true {
            let context = RequestContext(requestID: requestID, attempt: errors.count + 1, previousErrors: errors)
            let sent: URLRequest
            do throws(APIError) {
                sent = try await adapt(request, context: context)
            } catch {
                outcome = .failure(error)
                break
            }
            attempts += 1
            let attemptStarted = Self.now()
            outcome = await Self.result { () async throws(APIError) in try await send(sent, context) }
            let duration = Self.now() - attemptStarted
            let attemptResponse = outcome.response(response)
            lastResponse = attemptResponse ?? lastResponse
            var decision = RetryDecision.doNotRetry
            if case .failure(let error) = outcome, error != .cancelled {
                decision = await retryDecision(sent, for: error, context: context)
            }
            emit(
                .attemptFinished(
                    AttemptMetrics(
                        requestID: requestID, attempt: context.attempt, request: sent, response: attemptResponse,
                        error: outcome.failure, duration: duration, retryDelay: decision.delay
                    )))
            guard case .failure(let error) = outcome else { break }
            switch decision {
            case .doNotRetry:
                break loop
            case .fail(let replacement):
                outcome = .failure(replacement)
                break loop
            case .retry:
                break
            case .retryAfter(let delay):
                do {
                    try await Task.sleep(nanoseconds: Self.nanoseconds(delay))
                } catch {
                    outcome = .failure(.cancelled)
                    break loop
                }
            }
            errors.append(error)
        }
        emit(
            .requestFinished(
                RequestMetrics(
                    requestID: requestID, request: request, response: lastResponse, error: outcome.failure,
                    attempts: attempts, duration: Self.now() - started
                )))
        return try outcome.get()
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

    private static func result<Value>(
        _ body: () async throws(APIError) -> Value
    ) async -> Result<Value, APIError> {
        do throws(APIError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Seconds on a monotonic clock.
    private static func now() -> TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
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
