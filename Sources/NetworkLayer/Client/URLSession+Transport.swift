import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Sends `request` and returns the body and the HTTP response: the one seam every public
    /// way of sending goes through.
    ///
    /// - It drives `dataTask(with:completionHandler:)` rather than `data(for:)`: on Linux,
    ///   cancelling many in-flight `data(for:)` calls at once can hang or crash, while a
    ///   completion-handler task cancelled from another queue does not. Swift task cancellation
    ///   cancels the `URLSessionTask`, before or after it starts.
    /// - It enforces the timeout itself, as a deadline for the whole exchange (redirects included):
    ///   FoundationNetworking cuts timeouts to whole seconds and custom `URLProtocol`s get none.
    ///   The timeout is the request's `timeoutInterval` when it differs from `URLRequest`'s default
    ///   of 60 seconds, else the session's `timeoutIntervalForRequest`; one timer serves every
    ///   deadline (``DeadlineScheduler``).
    /// - On a session with ``SessionDelegate`` on Linux, it answers the delegate's cancelled
    ///   authentication challenge with the 401 or 407 response (empty body), and re-issues a
    ///   redirect that keeps the method, body included.
    /// - Throws: ``APIError/cancelled``, ``APIError/timedOut``, ``APIError/requestFailed(_:)`` or ``APIError/invalidResponse``.
    func httpResponse(for request: URLRequest) async throws(APIError) -> (Data, HTTPURLResponse) {
        let timeout = effectiveTimeout(for: request)
        let deadline = timeout.map { DispatchTime.now() + $0 }
        #if canImport(FoundationNetworking)
            var request = Self.foundationTimeout(request, timeout: timeout)
            var redirects = 0
            while true {
                let (body, response) = try await exchange(request, deadline: deadline)
                guard delegate is SessionDelegate, let next = request.redirected(by: response) else { return (body, response) }
                redirects += 1
                guard redirects <= Self.maximumRedirects else { throw .requestFailed(URLError(.httpTooManyRedirects)) }
                request = next
            }
        #else
            return try await exchange(request, deadline: deadline)
        #endif
    }

    /// As many redirects as URLSession itself follows before giving up.
    private static let maximumRedirects = 20

    /// The request's timeout if it was changed from the default, else the session's; `nil` when
    /// it is not a positive number of seconds (no deadline).
    func effectiveTimeout(for request: URLRequest) -> TimeInterval? {
        let timeout =
            request.timeoutInterval == URLRequest.defaultTimeoutInterval
            ? configuration.timeoutIntervalForRequest : request.timeoutInterval
        return timeout.isFinite && timeout > 0 ? timeout : nil
    }

    /// One request and its response, ended by completion, cancellation or the deadline.
    private func exchange(_ request: URLRequest, deadline: DispatchTime?) async throws(APIError) -> (Data, HTTPURLResponse) {
        let state = Locked(TransportState.idle)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), APIError>, Never>) in
                let start: @Sendable () -> Void = { [self] in
                    let started = state.withLock { current -> URLSessionDataTask? in
                        guard case .idle = current else { return nil }
                        let task = dataTask(with: request) { data, response, error in
                            let outcome = state.withLock { current in
                                defer { current = .finished }
                                return current
                            }
                            Self.exchangesInFlight.withLock { $0 -= 1 }
                            continuation.resume(returning: Self.result(data: data, response: response, error: error, outcome: outcome))
                        }
                        current = .running(task, Self.scheduleDeadline(deadline, state: state))
                        return task
                    }
                    if let started {
                        started.resume()
                    } else {
                        Self.exchangesInFlight.withLock { $0 -= 1 }
                        let reason = state.withLock { $0 }
                        continuation.resume(returning: .failure(reason.isTimedOut ? .timedOut : .cancelled))
                    }
                }
                // Creating and resuming a task wait for FoundationNetworking's work queue, which many
                // requests at once keep busy: with others in flight, that wait must not hold a thread of
                // the cooperative pool, so the task starts on a queue of its own. A lone request starts
                // at once, saving the hop's thread wake-up (about 8% of a sequential loopback request).
                let isAlone = Self.exchangesInFlight.withLock { count in
                    defer { count += 1 }
                    return count == 0
                }
                if isAlone { start() } else { Self.startQueue.async(execute: start) }
            }
        } onCancel: {
            state.end(as: .cancelled)
        }
        return try result.get()
    }

    /// Where tasks are created and resumed, off Swift's cooperative threads.
    private static let startQueue = DispatchQueue(label: "NetworkLayer.transport.start")

    /// The exchanges of the process started and not yet completed, which decides whether a new one
    /// starts on ``startQueue``.
    private static let exchangesInFlight = Locked(0)

    /// Ends the exchange in `state` as timed out at `deadline`, on the process's one deadline timer.
    /// - Returns: The token that cancels the deadline, or `nil` when there is none.
    private static func scheduleDeadline(_ deadline: DispatchTime?, state: Locked<TransportState>) -> UInt64? {
        deadline.map { DeadlineScheduler.shared.schedule(at: $0) { state.end(as: .timedOut) } }
    }

    #if canImport(FoundationNetworking)
        /// FoundationNetworking cuts timeouts (the request's or the session's) to whole seconds, so
        /// 0.5 s fires at once and 1.9 s after one second; giving the request the effective timeout
        /// rounded up keeps that timer from firing before the library's deadline.
        private static func foundationTimeout(_ request: URLRequest, timeout: TimeInterval?) -> URLRequest {
            guard let timeout, timeout.rounded(.up) != timeout else { return request }
            var request = request
            request.timeoutInterval = max(1, timeout.rounded(.up))
            return request
        }
    #endif

    private static func result(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        outcome: TransportState
    ) -> Result<(Data, HTTPURLResponse), APIError> {
        switch outcome {
        case .timedOut: return .failure(.timedOut)
        case .cancelled: return .failure(.cancelled)
        case .running(let task, let deadline):
            if let deadline { DeadlineScheduler.shared.cancel(deadline) }
            if let error {
                if let challenged = SessionDelegate.challengeResponse(of: task, error: error) {
                    return .success((Data(), challenged))
                }
                return .failure(APIError(transportError: error))
            }
            guard let response = response as? HTTPURLResponse else {
                return .failure(.invalidResponse)
            }
            return .success((data ?? Data(), response))
        case .idle, .finished:
            return .failure(.invalidResponse)
        }
    }
}

extension URLRequest {
    /// The timeout a `URLRequest` gets when nobody sets one.
    static let defaultTimeoutInterval: TimeInterval = 60
}

/// Where a transport call is, so start, completion, cancellation and the deadline never miss each other.
private enum TransportState {
    case idle
    /// The task, and the token of its deadline.
    case running(URLSessionTask, UInt64?)
    case cancelled
    case timedOut
    case finished

    var isTimedOut: Bool {
        if case .timedOut = self { true } else { false }
    }
}

extension Locked where Value == TransportState {
    /// Ends the exchange as `reason` (cancelled or timed out) unless it has already ended, and
    /// cancels its task.
    fileprivate func end(as reason: TransportState) {
        let running = withLock { current -> (URLSessionTask, UInt64?)? in
            switch current {
            case .idle:
                current = reason
                return nil
            case .running(let task, let deadline):
                current = reason
                return (task, deadline)
            case .cancelled, .timedOut, .finished:
                return nil
            }
        }
        guard let (task, deadline) = running else { return }
        if let deadline { DeadlineScheduler.shared.cancel(deadline) }
        // Cancelling from the cancelling thread itself can deadlock FoundationNetworking
        // when many tasks are cancelled at once; another queue avoids it.
        DispatchQueue.global().async { task.cancel() }
    }
}
