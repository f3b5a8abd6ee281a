import Foundation

/// The total deadline of one call: the call raced against a timer, and cancelled when the timer wins.
///
/// The call runs in a task of its own, which the caller's cancellation is forwarded to; a timer of the
/// ``DeadlineScheduler`` (a dispatch timer, which fires on time however busy Swift's cooperative
/// threads are) cancels it when the deadline passes before it has ended. The deadline thus reaches
/// whatever the call is doing (an adapter, the transport, a wait between retries, the body being
/// consumed) through Swift's cancellation, which every step honours already. A failure of a call the
/// timer cut short is ``APIError/deadlineExceeded(_:)``, whatever the step failed with; the caller's
/// own cancellation stays ``APIError/cancelled``, and a call that ended before the deadline keeps
/// its outcome.
///
/// A call without a deadline makes none, and pays nothing for it.
final class CallDeadline: Sendable {
    private struct State {
        var hasEnded = false
        var hasExpired = false
    }

    /// The deadline in seconds, as ``APIError/deadlineExceeded(_:)`` reports it.
    let seconds: TimeInterval
    /// The uptime at which it expires, in nanoseconds.
    private let end: UInt64
    private let state = Locked(State())

    private init(seconds: TimeInterval, end: UInt64) {
        self.seconds = seconds
        self.end = end
    }

    /// The deadline `seconds` after `start`, or `nil` for none (`seconds` is `nil` or `.infinity`).
    /// - Parameters:
    ///   - seconds: The deadline in seconds.
    ///   - start: The uptime the call started at, in nanoseconds; now by default.
    /// - Throws: ``APIError/invalidRequest(_:)`` when `seconds` is not a positive number.
    static func make(_ seconds: TimeInterval?, since start: UInt64? = nil) throws(APIError) -> CallDeadline? {
        guard let seconds, seconds != .infinity else { return nil }
        guard seconds > 0 else {
            throw .invalidRequest("deadline must be a positive number of seconds (or .infinity for none), not \(seconds)")
        }
        let start = start ?? DispatchTime.now().uptimeNanoseconds
        // Beyond a billion seconds is as good as never, and keeps the sum within 64 bits.
        let (end, overflow) = start.addingReportingOverflow(UInt64(min(seconds, 1e9) * 1_000_000_000))
        return CallDeadline(seconds: seconds, end: overflow ? .max : end)
    }

    /// Whether the deadline passed before the call ended.
    var hasExpired: Bool { state.withLock { $0.hasExpired } }

    /// `result`, with its failure replaced by ``APIError/deadlineExceeded(_:)`` once the deadline has passed.
    func outcome<Success>(_ result: Result<Success, APIError>) -> Result<Success, APIError> {
        guard case .failure = result, hasExpired else { return result }
        return .failure(.deadlineExceeded(seconds))
    }

    /// Runs `operation` until it ends; when the deadline passes first, `operation` is cancelled, its
    /// end awaited, and its failure reported as ``APIError/deadlineExceeded(_:)``.
    func run<Success: Sendable>(
        _ operation: @escaping @Sendable () async -> Result<Success, APIError>
    ) async -> Result<Success, APIError> {
        let call = Task {
            let result = await operation()
            state.withLock { $0.hasEnded = true }
            return result
        }
        let timer = DeadlineScheduler.shared.schedule(at: DispatchTime(uptimeNanoseconds: end)) { [state] in
            let expires = state.withLock { state in
                if !state.hasEnded { state.hasExpired = true }
                return state.hasExpired
            }
            if expires { call.cancel() }
        }
        let result = await withTaskCancellationHandler {
            await call.value
        } onCancel: {
            call.cancel()
        }
        DeadlineScheduler.shared.cancel(timer)
        return outcome(result)
    }
}

extension Result where Failure == APIError {
    /// The value `body` returns, or the error it throws.
    init(awaiting body: () async throws(APIError) -> Success) async {
        do throws(APIError) {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
