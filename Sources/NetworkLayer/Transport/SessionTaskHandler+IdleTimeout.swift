import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The idle timeout: the exchange ends as ``APIError/timedOut`` once nothing has moved for its whole
/// timeout, looked at when it could first have run out. Time the reader holds the body back does not count.
extension SessionTaskHandler {
    /// Has ``checkIdle()`` run at `uptime` (in nanoseconds); returns the token that cancels it.
    func scheduleDeadline(at uptime: UInt64) -> UInt64 {
        DeadlineScheduler.shared.schedule(at: DispatchTime(uptimeNanoseconds: uptime)) { [weak self] in self?.checkIdle() }
    }

    /// Times the exchange out if nothing moved for its whole timeout (time the reader held it back
    /// does not count); otherwise looks again when it next could.
    func checkIdle() {
        guard let timeout else { return }
        let isIdle = state.withLock { state -> Bool in
            switch state.phase {
            case .idle, .running: break
            case .ended, .completed: return false
            }
            let now = Self.now()
            if state.isPausedByReader { state.lastActivity = now }
            if now >= state.lastActivity + timeout { return true }
            state.deadline = scheduleDeadline(at: state.lastActivity + timeout)
            return false
        }
        if isIdle { end(.timedOut) }
    }

    /// Notes whether the reader holds the transfer back, and returns the running task when that changed.
    @discardableResult
    func setPaused(_ isPaused: Bool) -> URLSessionTask? {
        state.withLock { state in
            guard case .running(let task) = state.phase, state.isPausedByReader != isPaused else { return nil }
            state.isPausedByReader = isPaused
            state.lastActivity = Self.now()
            return task
        }
    }

    /// The uptime now, in nanoseconds: what activity and deadlines are measured in.
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
