import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

@Suite("HTTPCache freshness (RFC 9111 §4.2)")
struct HTTPCacheFreshnessTests {
    @Test("A response fresh by max-age answers from the cache, with its Age, until it is stale")
    func maxAge() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        let first = try await harness.get()
        #expect(HTTPCache.outcome(of: first.response) == nil)
        harness.clock.advance(30)
        let second = try await harness.get()
        #expect(second.value == "v1")
        #expect(HTTPCache.outcome(of: second.response) == .hit)
        #expect(second.headers["Age"] == "30")
        #expect(harness.sent == 1)
        harness.clock.advance(31)
        _ = try await harness.get()
        #expect(harness.sent == 2)
    }

    @Test("Expires counts from Date, not from the local clock")
    func expiresAgainstDate() async throws {
        let harness = CacheHarness()
        // The server's clock is an hour ahead of ours: Expires is 100 s after its Date, not an hour and 100 s from now.
        harness.serve(["Date": harness.clock.httpDate(3600), "Expires": harness.clock.httpDate(3700)])
        #expect(try await harness.sentAfterPauses([0, 101]) == [1, 1, 2])
    }

    @Test("An invalid Expires means already stale")
    func invalidExpires() async throws {
        let harness = CacheHarness()
        harness.serve(["Expires": "0", "ETag": "\"a\""])
        #expect(try await harness.sentAfterPauses([0]) == [1, 2])
    }

    @Test("max-age wins over Expires")
    func maxAgeOverExpires() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=0", "Expires": harness.clock.httpDate(3600), "ETag": "\"a\""])
        #expect(try await harness.sentAfterPauses([0]) == [1, 2])
    }

    @Test("An Age header from upstream shortens the freshness left")
    func ageHeader() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=100", "Age": "90"])
        #expect(try await harness.sentAfterPauses([5, 6]) == [1, 1, 2])
    }

    @Test("The corrected initial age adds the time the response took to arrive to its Age (§4.2.3)")
    func correctedInitialAge() async throws {
        let harness = CacheHarness()
        let clock = harness.clock
        harness.stubs.register(.get, "/items") { _ in
            // The answer takes 50 s to arrive; it was 10 s old upstream, and is dated when it left.
            clock.advance(50)
            return StubResponse(headers: ["Cache-Control": "max-age=70", "Age": "10", "Date": clock.httpDate()], body: Data("v1".utf8))
        }
        _ = try await harness.get()
        harness.clock.advance(9)
        let second = try await harness.get()
        #expect(HTTPCache.outcome(of: second.response) == .hit)
        #expect(second.headers["Age"] == "69")
        harness.clock.advance(2)
        _ = try await harness.get()
        #expect(harness.sent == 2)
    }

    @Test("Heuristic freshness is 10% of the time since Last-Modified, for heuristically cacheable statuses")
    func heuristic() async throws {
        let harness = CacheHarness()
        // Modified 1000 s before Date: fresh for 100 s.
        harness.serve(["Last-Modified": harness.clock.httpDate(-1000)])
        #expect(try await harness.sentAfterPauses([99, 2]) == [1, 1, 2])
    }

    @Test("A 404 is heuristically cacheable, a 302 without explicit freshness is not stored")
    func heuristicStatuses() async throws {
        let harness = CacheHarness()
        let client = NetworkClient(
            transport: harness.stubs,
            configuration: ClientConfiguration(acceptableStatusCodes: [200, 302, 404], interceptors: [harness.cache]))
        harness.stubs.register(
            .get, "/missing",
            StubResponse(statusCode: 404, headers: ["Last-Modified": harness.clock.httpDate(-1000), "Date": harness.clock.httpDate()]))
        harness.stubs.register(
            .get, "/moved",
            StubResponse(statusCode: 302, headers: ["Last-Modified": harness.clock.httpDate(-1000), "Date": harness.clock.httpDate()]))
        for path in ["/missing", "/moved", "/missing", "/moved"] {
            _ = try await client.response(for: TestEndpoint(path: path), as: Data.self)
        }
        #expect(harness.stubs.requests(.get, "/missing").count == 1)
        #expect(harness.stubs.requests(.get, "/moved").count == 2)
    }

    @Test("An invalid max-age makes the response stale")
    func invalidMaxAge() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=soon", "Expires": harness.clock.httpDate(3600), "ETag": "\"a\""])
        #expect(try await harness.sentAfterPauses([0]) == [1, 2])
    }
}
