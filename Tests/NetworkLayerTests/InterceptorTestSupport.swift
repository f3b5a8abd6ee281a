import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds `header: value` to every attempt and records the value of `header` it found on arrival.
struct HeaderAdapter: Interceptor {
    let header: String
    let value: String
    let seen = LockedArray<String?>()

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        seen.append(request.value(forHTTPHeaderField: header))
        var request = request
        request.setValue(value, forHTTPHeaderField: header)
        return request
    }
}

/// Decides every retry with a closure and records what it was asked.
struct ScriptedRetrier: Interceptor {
    let asked = LockedArray<(error: APIError, attempt: Int)>()
    let decide: @Sendable (APIError, RequestContext) -> RetryDecision

    init(_ decide: @escaping @Sendable (APIError, RequestContext) -> RetryDecision) {
        self.decide = decide
    }

    func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        asked.append((error, context.attempt))
        return decide(error, context)
    }
}

/// Records every event it observes.
struct EventLog: Interceptor {
    let events = LockedArray<NetworkEvent>()

    func observe(_ event: NetworkEvent) {
        events.append(event)
    }

    var attempts: [AttemptMetrics] {
        events.elements.compactMap { if case .attemptFinished(let metrics) = $0 { metrics } else { nil } }
    }

    var finished: [RequestMetrics] {
        events.elements.compactMap { if case .requestFinished(let metrics) = $0 { metrics } else { nil } }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Locked(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }

    var count: Int { value.withLock { $0 } }
}

/// Holds the first attempt of each request until `count` requests have reached it, so that all of
/// them read their credential before any is sent.
struct FirstAttemptBarrier: Interceptor {
    let count: Int
    let arrived = Counter()

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard context.attempt == 1 else { return request }
        arrived.increment()
        while arrived.count < count {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        return request
    }
}

/// Runs `operation`, failing the test if it has not finished after `seconds`: a watchdog for tests
/// that would otherwise wait for minutes. Returns its result, or `nil` (leaving it running) on timeout.
func withWatchdog<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let pending = Locked<CheckedContinuation<T?, Never>?>(nil)
    let finish: @Sendable (T?) -> Void = { value in
        pending.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
    let result = await withCheckedContinuation { continuation in
        pending.withLock { $0 = continuation }
        Task { finish(await operation()) }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            finish(nil)
        }
    }
    if result == nil { Issue.record("did not finish within \(seconds) s") }
    return result
}

/// A client over `stubs` with these interceptors and a private callback queue.
func client(_ stubs: StubSession, _ interceptors: [any Interceptor]) -> NetworkClient {
    NetworkClient(
        transport: URLSessionTransport(session: stubs.session),
        configuration: ClientConfiguration(interceptors: interceptors, callbackQueue: DispatchQueue(label: "tests.interceptors")))
}
