import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the owner of a ``Transfer`` hears about its task: in order, one at a time, on the
/// transfer session's delegate queue. The response always comes before the first data, and
/// completion comes exactly once, last, even for a transfer cancelled before it started.
protocol TransferObserver: Sendable {
    func transfer(_ transfer: Transfer, didReceive response: HTTPURLResponse)
    func transfer(_ transfer: Transfer, didReceive data: Data)
    func transfer(_ transfer: Transfer, didSend totalBytesSent: Int64, of expected: Int64)
    func transfer(_ transfer: Transfer, didCompleteWith result: Result<HTTPURLResponse, APIError>)
}

extension TransferObserver {
    func transfer(_ transfer: Transfer, didSend totalBytesSent: Int64, of expected: Int64) {}
}

/// One `URLSessionTask` on a ``TransferSession``, from start to completion: it ends it on
/// cancellation or when it has been idle for its timeout, and maps how it ended to an ``APIError``.
///
/// The timeout is an idle timeout: it restarts with every chunk sent or received, so a long
/// transfer that keeps moving never times out; time held back by a slow disk (see
/// ``TransferGate``) does not count.
final class Transfer: Sendable {
    /// Why a transfer was ended before its task completed on its own.
    enum EndReason: Sendable {
        case cancelled
        case timedOut
        case failed(APIError)

        var error: APIError {
            switch self {
            case .cancelled: .cancelled
            case .timedOut: .timedOut
            case .failed(let error): error
            }
        }
    }

    private enum Phase {
        case idle
        case running(URLSessionTask, (any DispatchSourceTimer)?)
        case ending(EndReason)
        case completed
    }

    private struct State {
        var phase = Phase.idle
        var lastActivity = DispatchTime.now()
        var hasResponse = false
        /// `task.cancel()` calls dispatched but not yet returned: the session goes back to its pool
        /// only after them, so that a late cancellation never lands on the session's next transfer.
        var cancelsInFlight = 0
        var isFinished = false
    }

    let session: TransferSession
    private let observer: any TransferObserver
    private let timeout: TimeInterval?
    private let state = Locked(State())

    init(session: TransferSession, timeout: TimeInterval?, observer: any TransferObserver) {
        self.session = session
        self.timeout = timeout
        self.observer = observer
    }

    /// Creates the task with `makeTask` and starts it, unless the transfer was already cancelled,
    /// on the session's control queue.
    func start(_ makeTask: @escaping @Sendable (URLSession) -> URLSessionTask) {
        session.controlQueue.async { [self] in begin(makeTask) }
    }

    private func begin(_ makeTask: (URLSession) -> URLSessionTask) {
        if case .ending(let reason) = state.withLock({ $0.phase }) {
            finish(nil, with: .failure(reason.error))
            return
        }
        let task = makeTask(session.session)
        session.delegate.register(self, for: task)
        let ended = state.withLock { state -> EndReason? in
            if case .ending(let reason) = state.phase { return reason }
            state.phase = .running(task, makeIdleTimer())
            state.lastActivity = .now()
            return nil
        }
        if let ended {
            session.delegate.unregister(task)
            // A created task stays registered with its session until it completes.
            cancelTask(task)
            finish(nil, with: .failure(ended.error))
            return
        }
        task.resume()
    }

    /// Ends the transfer as `reason` unless it has ended already: cancels its task and lets the
    /// gate through, so that nothing waits on a transfer that is going away.
    func cancel(_ reason: EndReason) {
        let running = state.withLock { state -> (URLSessionTask, (any DispatchSourceTimer)?)? in
            switch state.phase {
            case .idle:
                state.phase = .ending(reason)
                return nil
            case .running(let task, let timer):
                state.phase = .ending(reason)
                return (task, timer)
            case .ending, .completed:
                return nil
            }
        }
        guard let (task, timer) = running else { return }
        timer?.cancel()
        session.gate.open()
        cancelTask(task)
    }

    /// Cancels `task` from the session's control queue (cancelling on a callback's thread can
    /// deadlock FoundationNetworking), and returns the session to its pool afterwards if the
    /// transfer has finished by then.
    private func cancelTask(_ task: URLSessionTask) {
        state.withLock { $0.cancelsInFlight += 1 }
        session.controlQueue.async { [self] in
            task.cancel()
            let release = state.withLock { state -> Bool in
                state.cancelsInFlight -= 1
                return state.isFinished && state.cancelsInFlight == 0
            }
            if release { session.release() }
        }
    }

    // MARK: Callbacks from the session's delegate

    func didReceive(_ response: URLResponse, of task: URLSessionTask) {
        guard isRunning(deliveringResponse: true) else { return }
        guard let response = response as? HTTPURLResponse else {
            cancel(.failed(.invalidResponse))
            return
        }
        observer.transfer(self, didReceive: response)
    }

    func didReceive(_ data: Data, of task: URLSessionTask) {
        let needsResponse = state.withLock { state -> Bool? in
            guard case .running = state.phase else { return nil }
            state.lastActivity = .now()
            let needsResponse = !state.hasResponse
            state.hasResponse = true
            return needsResponse
        }
        guard let needsResponse else { return }
        if needsResponse {
            guard let response = task.response as? HTTPURLResponse else {
                cancel(.failed(.invalidResponse))
                return
            }
            observer.transfer(self, didReceive: response)
        }
        observer.transfer(self, didReceive: data)
    }

    func didSend(_ totalBytesSent: Int64, of expected: Int64) {
        guard isRunning(deliveringResponse: false) else { return }
        observer.transfer(self, didSend: totalBytesSent, of: expected)
    }

    func didComplete(_ task: URLSessionTask, error: (any Error)?) {
        let ended = state.withLock { state -> EndReason?? in
            defer { state.phase = .completed }
            switch state.phase {
            case .running(_, let timer):
                timer?.cancel()
                return .some(nil)
            case .ending(let reason):
                return .some(reason)
            case .idle, .completed:
                return nil
            }
        }
        guard let ended else { return }
        let result: Result<HTTPURLResponse, APIError>
        if let ended {
            result = .failure(ended.error)
        } else if let error {
            result =
                SessionDelegate.challengeResponse(of: task, error: error).map { .success($0) } ?? .failure(APIError(transportError: error))
        } else if let response = task.response as? HTTPURLResponse {
            result = .success(response)
        } else {
            result = .failure(.invalidResponse)
        }
        finish(task, with: result)
    }

    // MARK: Internals

    /// Whether the task is running; counts the callback as activity.
    private func isRunning(deliveringResponse: Bool) -> Bool {
        state.withLock { state in
            guard case .running = state.phase else { return false }
            state.lastActivity = .now()
            if deliveringResponse { state.hasResponse = true }
            return true
        }
    }

    /// Returns the session to its pool (unless a cancellation is still on its way, which will),
    /// then tells the observer: the next transfer can reuse the session, and its connection, as
    /// soon as this one's owner moves on.
    private func finish(_ task: URLSessionTask?, with result: Result<HTTPURLResponse, APIError>) {
        if let task { session.delegate.unregister(task) }
        let release = state.withLock { state -> Bool in
            state.isFinished = true
            return state.cancelsInFlight == 0
        }
        if release { session.release() }
        observer.transfer(self, didCompleteWith: result)
    }

    private func makeIdleTimer() -> (any DispatchSourceTimer)? {
        guard let timeout else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [weak self] in self?.checkIdle() }
        timer.schedule(deadline: .now() + timeout, leeway: .milliseconds(1))
        timer.resume()
        return timer
    }

    /// Times the transfer out if nothing moved for its whole timeout; otherwise looks again when it next could.
    private func checkIdle() {
        guard let timeout else { return }
        let isHoldingBack = session.gate.isHoldingBack
        let verdict = state.withLock { state -> (any DispatchSourceTimer, DispatchTime)?? in
            guard case .running(_, let timer) = state.phase, let timer else { return nil }
            let now = DispatchTime.now()
            if isHoldingBack { state.lastActivity = now }
            let deadline = state.lastActivity + timeout
            return deadline <= now ? .some(nil) : .some((timer, deadline))
        }
        switch verdict {
        case .some(.some((let timer, let deadline))):
            timer.schedule(deadline: deadline, leeway: .milliseconds(1))
        case .some(.none):
            cancel(.timedOut)
        case .none:
            break
        }
    }
}
