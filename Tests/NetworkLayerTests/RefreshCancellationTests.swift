import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A gate that async callers wait at until it is opened; opening it lets every waiter through.
final class Gate: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// Counts the requests whose failed attempt reached it: placed before an authenticator, it sees each
/// request just before the authenticator decides (and possibly waits for a refresh).
struct RetryProbe: Interceptor {
    let reached = Counter()

    func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        reached.increment()
        return .doNotRetry
    }
}

@Suite("RefreshingAuthenticator and cancellation")
struct RefreshCancellationTests {
    @Test("A request cancelled while it waits for a refresh ends at once with .cancelled; the refresh goes on for the others")
    func cancelledWhileWaitingToRetry() async throws {
        let stubs = RefreshingAuthenticatorTests.stubs(accepting: "new")
        let gate = Gate()
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in
            refreshes.increment()
            await gate.wait()
            return "new"
        }
        let probe = RetryProbe()
        let client = client(stubs, [probe, auth, FirstAttemptBarrier(count: 2)])
        let results = LockedArray<(index: Int, result: Result<Movie, APIError>)>()
        let requests = (0..<2).map { index in
            Task { results.append((index, await client.fetch(TestEndpoint(), as: Movie.self))) }
        }
        // Both were rejected and are waiting for the one refresh, which waits at the gate.
        #expect(await eventually(timeout: 30) { probe.reached.count == 2 && refreshes.count == 1 })
        requests[1].cancel()
        let endedBeforeRefresh = await eventually(timeout: 10) { results.count == 1 }
        gate.open()
        for request in requests { await request.value }
        #expect(endedBeforeRefresh, "the cancelled request waited for the refresh to end")
        let byIndex = Dictionary(uniqueKeysWithValues: results.elements.map { ($0.index, $0.result) })
        #expect(byIndex[1]?.failure == .cancelled)
        #expect(try byIndex[0]?.get() == Movie(id: 1, title: "A"), "the refresh went on for the other request")
        #expect(refreshes.count == 1)
        #expect(auth.credential == "new")
    }

    @Test("A request cancelled while it waits for the first credential ends at once with .cancelled, and is never sent")
    func cancelledWhileWaitingToSend() async throws {
        let stubs = RefreshingAuthenticatorTests.stubs(accepting: "first")
        let gate = Gate()
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: nil) { _ in
            refreshes.increment()
            await gate.wait()
            return "first"
        }
        let client = client(stubs, [auth])
        let done = LockedArray<Result<Movie, APIError>>()
        let waiting = Task { done.append(await client.fetch(TestEndpoint(), as: Movie.self)) }
        #expect(await eventually(timeout: 30) { refreshes.count == 1 })
        waiting.cancel()
        let endedBeforeRefresh = await eventually(timeout: 10) { done.count == 1 }
        gate.open()
        await waiting.value
        #expect(endedBeforeRefresh, "the cancelled request waited for the refresh to end")
        #expect(done.elements.first?.failure == .cancelled)
        #expect(stubs.requests.isEmpty)
        // The refresh finished for whoever comes next.
        #expect(await eventually { auth.credential == "first" })
        #expect(try await client.send(TestEndpoint(), as: Movie.self) == Movie(id: 1, title: "A"))
        #expect(refreshes.count == 1)
    }
}
