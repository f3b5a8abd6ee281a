import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

/// `stale-while-revalidate` (RFC 5861 §3), the suite's `cc-stale` case `stale-while-revalidate`.
@Suite("HTTPCache stale-while-revalidate")
struct HTTPCacheStaleWhileRevalidateTests {
    /// Waits (a few seconds at most) until `harness` has seen `count` requests.
    private func waitForRequests(_ count: Int, in harness: CacheHarness) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while harness.sent < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("cc-stale stale-while-revalidate: served stale at once, revalidated in the background, the new response stored")
    func servesStaleAndRevalidates() async throws {
        let harness = CacheHarness()
        let cache = HTTPCache(storage: harness.storage, revalidationTransport: harness.stubs, now: { [clock = harness.clock] in clock.now })
        let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
        try await harness.storeStaleWhileRevalidate(through: client)
        let stale = try await client.response(for: TestEndpoint(), as: String.self)
        #expect(stale.value == "v1")
        #expect(HTTPCache.outcome(of: stale.response) == .stale)
        try await waitForRequests(2, in: harness)
        #expect(harness.stubs.requests.last?.headers["If-None-Match"] == #""a""#)
        var refreshed = try await client.response(for: TestEndpoint(), as: String.self)
        // The background task stores what it got as soon as it has it; give it its turn.
        let deadline = ContinuousClock.now + .seconds(5)
        while refreshed.value != "v2", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            refreshed = try await client.response(for: TestEndpoint(), as: String.self)
        }
        #expect(refreshed.value == "v2")
        #expect(HTTPCache.outcome(of: refreshed.response) == .hit)
        #expect(harness.sent == 2)
    }

    @Test("Past its window a stale-while-revalidate response is revalidated first")
    func revalidatesFirstPastItsWindow() async throws {
        let harness = CacheHarness()
        let cache = HTTPCache(storage: harness.storage, now: { [clock = harness.clock] in clock.now })
        let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
        harness.serve(["Cache-Control": "max-age=1, stale-while-revalidate=60"], body: "v1")
        _ = try await client.response(for: TestEndpoint(), as: String.self)
        harness.clock.advance(120)
        harness.serve(["Cache-Control": "max-age=3600"], body: "v2")
        let answer = try await client.response(for: TestEndpoint(), as: String.self)
        #expect(answer.value == "v2")
        #expect(HTTPCache.outcome(of: answer.response) == nil)
    }

    @Test("Within its window, a client's cache revalidates in the background over the client's own transport, given none")
    func revalidatesOverTheClientsTransport() async throws {
        let harness = CacheHarness()
        let cache = HTTPCache(storage: harness.storage, now: { [clock = harness.clock] in clock.now })
        let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
        harness.serve(["Cache-Control": "max-age=1, stale-while-revalidate=60"], body: "v1")
        _ = try await client.response(for: TestEndpoint(), as: String.self)
        harness.clock.advance(3)
        harness.serve(["Cache-Control": "max-age=3600"], body: "v2")
        let answer = try await client.response(for: TestEndpoint(), as: String.self)
        #expect(answer.value == "v1")
        #expect(HTTPCache.outcome(of: answer.response) == .stale)
        #expect(await eventually(timeout: 10) { harness.sent == 2 }, "the revalidation went over the client's transport")
        // Once the revalidation has stored its answer, the next call is answered with it, fresh.
        var refreshed: Response<String>?
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let next = try await client.response(for: TestEndpoint(), as: String.self)
            if HTTPCache.outcome(of: next.response) == .hit {
                refreshed = next
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(refreshed?.value == "v2")
        #expect(harness.sent == 2)
    }

    @Test("A background revalidation bounds the body it collects as a client does by default")
    func backgroundBodyBounded() async throws {
        let harness = CacheHarness()
        let recorder = LimitRecorder(base: harness.stubs)
        let cache = HTTPCache(storage: harness.storage, revalidationTransport: recorder, now: { [clock = harness.clock] in clock.now })
        let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
        harness.serve(["Cache-Control": "max-age=1, stale-while-revalidate=60"], body: "v1")
        _ = try await client.response(for: TestEndpoint(), as: String.self)
        harness.clock.advance(3)
        _ = try await client.response(for: TestEndpoint(), as: String.self)
        try await waitForRequests(2, in: harness)
        #expect(recorder.limits.withLock { $0 } == [ResponseLimits.default.inMemory])
    }

    @Test("A request carrying credentials over plain http is not revalidated in the background, past the client's policy")
    func noCleartextCredentialsInBackground() async throws {
        let harness = CacheHarness()
        let recorder = LimitRecorder(base: harness.stubs)
        let cache = HTTPCache(storage: harness.storage, revalidationTransport: recorder, now: { [clock = harness.clock] in clock.now })
        let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
        harness.serve(["Cache-Control": "max-age=1, stale-while-revalidate=60"], body: "v1")
        _ = try await client.response(for: TestEndpoint(base: "http://api.example.test"), as: String.self)
        harness.clock.advance(3)
        let withCredentials = TestEndpoint(base: "http://api.example.test", headers: ["Authorization": "Bearer t"])
        await #expect(throws: APIError.cleartextCredentials(host: "api.example.test", headers: ["Authorization"])) {
            try await client.response(for: withCredentials, as: String.self)
        }
        #expect(recorder.limits.withLock { $0 }.isEmpty)
        #expect(harness.sent == 1)
    }
}

/// A transport that records the body limit of every request, then sends it through `base`.
private struct LimitRecorder: HTTPTransport {
    let base: any HTTPTransport
    let limits = Locked<[Int64?]>([])

    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        limits.withLock { $0.append(request.maximumBodySize) }
        return try await base.send(request)
    }
}
