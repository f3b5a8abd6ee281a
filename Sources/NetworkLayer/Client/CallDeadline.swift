import Foundation

/// The total deadline of one call: the call raced against a timer, and cancelled when the timer wins.
///
/// The call runs in a child task beside a sleeping one, and whichever ends first cancels the other.
/// The deadline thus reaches whatever the call is doing (an adapter, the transport, a wait between
/// retries, the body being consumed) through Swift's cancellation, which every step honours already.
/// The caller's own cancellation cancels both children and stays ``APIError/cancelled``: the timer
/// counts as expired only when it slept its whole time uncancelled. Once it has expired, a failure
/// of the call is ``APIError/deadlineExceeded(_:)``, whatever the step it cut short failed with.
///
/// A call without a deadline makes none, and pays nothing for it.
final class CallDeadline: Sendable {
    /// The deadline in seconds, as ``APIError/deadlineExceeded(_:)`` reports it.
    let seconds: TimeInterval
    /// The uptime at which it expires, in nanoseconds.
    private let end: UInt64
    private let expired = Locked(false)

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

    /// Whether the deadline has passed while the call ran.
    var hasExpired: Bool { expired.withLock { $0 } }

    /// `result`, with its failure replaced by ``APIError/deadlineExceeded(_:)`` once the deadline has passed.
    func outcome<Success>(_ result: Result<Success, APIError>) -> Result<Success, APIError> {
        guard case .failure = result, hasExpired else { return result }
        return .failure(.deadlineExceeded(seconds))
    }

    /// Runs `operation` until it ends or the deadline passes; in the second case `operation` is
    /// cancelled, its end awaited, and its failure reported as ``APIError/deadlineExceeded(_:)``.
    func run<Success: Sendable>(
        _ operation: @escaping @Sendable () async -> Result<Success, APIError>
    ) async -> Result<Success, APIError> {
        let result = await withTaskGroup(of: Step<Success>.self) { group in
            group.addTask { .finished(await operation()) }
            group.addTask {
                await self.sleep()
                return .timerEnded
            }
            for await step in group {
                // Whichever ended first, the other one is not needed any more.
                group.cancelAll()
                if case .finished(let result) = step { return result }
            }
            // Not reached: the call's child always ends, and the loop returns its result.
            return Result<Success, APIError>.failure(.deadlineExceeded(seconds))
        }
        return outcome(result)
    }

    /// Sleeps until the deadline, and marks it expired unless cancelled first (the call ended, or its caller cancelled it).
    private func sleep() async {
        let now = DispatchTime.now().uptimeNanoseconds
        if end > now { try? await Task.sleep(nanoseconds: end - now) }
        if !Task.isCancelled { expired.withLock { $0 = true } }
    }

    private enum Step<Success: Sendable>: Sendable {
        case finished(Result<Success, APIError>)
        case timerEnded
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
