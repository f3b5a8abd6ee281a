#if AsyncHTTPClient
    import Foundation

    /// The idle timeout: the exchange ends as ``APIError/timedOut`` once nothing has moved for its
    /// whole timeout, looked at when it could first have run out.
    extension AsyncHTTPClientExchange {
        /// Has ``checkIdle()`` run at `uptime` (in nanoseconds); returns the token that cancels it.
        func scheduleDeadline(at uptime: UInt64) -> UInt64 {
            DeadlineScheduler.shared.schedule(at: DispatchTime(uptimeNanoseconds: uptime)) { [weak self] in self?.checkIdle() }
        }

        /// Times the exchange out if nothing moved for its whole timeout (time the reader held the
        /// body back does not count); otherwise looks again when it next could.
        func checkIdle() {
            guard let timeout else { return }
            let isIdle = state.withLock { state -> Bool in
                guard state.writerIfRunning != nil else { return false }
                let now = Self.now()
                if state.demand != nil { state.lastActivity = now }
                if now >= state.lastActivity + timeout { return true }
                state.deadline = scheduleDeadline(at: state.lastActivity + timeout)
                return false
            }
            if isIdle { end(.timedOut) }
        }

        /// The uptime now, in nanoseconds: what activity and deadlines are measured in.
        static func now() -> UInt64 {
            DispatchTime.now().uptimeNanoseconds
        }
    }
#endif
