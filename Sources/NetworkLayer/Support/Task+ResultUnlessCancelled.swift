/// What waiting for another task ended with: its result, or the waiter's own cancellation.
enum WaitOutcome<Success: Sendable>: Sendable {
    case finished(Result<Success, any Error>)
    case waiterCancelled
}

extension Task where Failure == any Error {
    /// The task's result, or ``WaitOutcome/waiterCancelled`` as soon as the *calling* task is
    /// cancelled, whichever comes first. The awaited task goes on either way: `await task.value`
    /// alone would keep a cancelled caller suspended until the task ends.
    func resultUnlessCancelled() async -> WaitOutcome<Success> {
        let waiter = Waiter<Success>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.wait(with: continuation)
                Task<Void, Never> { waiter.finish(.finished(await self.result)) }
            }
        } onCancel: {
            waiter.finish(.waiterCancelled)
        }
    }
}

/// One waiter's continuation and the first outcome for it; the outcome may come before the
/// continuation does (a caller cancelled before it started waiting).
private final class Waiter<Success: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<WaitOutcome<Success>, Never>?
        var outcome: WaitOutcome<Success>?
        var resumed = false
    }

    private let state = Locked(State())

    func wait(with continuation: CheckedContinuation<WaitOutcome<Success>, Never>) {
        let early = state.withLock { state -> WaitOutcome<Success>? in
            guard let outcome = state.outcome else {
                state.continuation = continuation
                return nil
            }
            state.resumed = true
            return outcome
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Hands `outcome` to the waiter unless an earlier one was handed already.
    func finish(_ outcome: WaitOutcome<Success>) {
        let continuation = state.withLock { state -> CheckedContinuation<WaitOutcome<Success>, Never>? in
            guard !state.resumed, state.outcome == nil else { return nil }
            state.outcome = outcome
            guard let continuation = state.continuation else { return nil }
            state.resumed = true
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: outcome)
    }
}
