import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

@Suite("HTTPCache validation and stale responses (RFC 9111 §4.3, RFC 5861)")
struct HTTPCacheValidationTests {
    /// A harness whose `/items` answers `200` with validators first, then `304` with `headers`.
    private func revalidating(_ headers: HTTPHeaders = [:]) -> CacheHarness {
        let harness = CacheHarness()
        let clock = harness.clock
        let lastModified = clock.httpDate(-1000)
        harness.stubs.register(.get, "/items") { request in
            if request.headers["If-None-Match"] == nil {
                return StubResponse(
                    headers: [
                        "Cache-Control": "max-age=10", "ETag": "\"v1\"", "Last-Modified": lastModified, "X-Version": "1",
                        "Date": clock.httpDate(), "Content-Type": "text/plain",
                    ], body: Data("v1".utf8))
            }
            return StubResponse(statusCode: 304, headers: headers.merging(["Date": clock.httpDate()]))
        }
        return harness
    }

    @Test("A stale response is revalidated with If-None-Match and If-Modified-Since; a 304 returns the stored body as 200")
    func revalidation() async throws {
        let harness = revalidating(["ETag": "\"v1\""])
        _ = try await harness.get()
        harness.clock.advance(11)
        let second = try await harness.get()
        let sent = try #require(harness.stubs.requests.last)
        #expect(sent.headers["If-None-Match"] == "\"v1\"")
        #expect(sent.headers["If-Modified-Since"] == harness.stubs.requests.first.map { _ in harness.clock.httpDate(-1011) })
        #expect(second.statusCode == 200)
        #expect(second.value == "v1")
        #expect(HTTPCache.outcome(of: second.response) == .revalidated)
    }

    @Test("A 304 updates the stored headers and freshness, but not Content-Length")
    func notModifiedUpdatesHeaders() async throws {
        let harness = revalidating(["Cache-Control": "max-age=100", "X-Version": "2", "Content-Length": "0"])
        _ = try await harness.get()
        harness.clock.advance(11)
        let revalidated = try await harness.get()
        #expect(revalidated.headers["X-Version"] == "2")
        #expect(revalidated.headers["Content-Type"] == "text/plain")
        #expect(revalidated.value == "v1")
        // Fresh again for 100 s from the 304.
        harness.clock.advance(50)
        let hit = try await harness.get()
        #expect(HTTPCache.outcome(of: hit.response) == .hit)
        #expect(hit.headers["X-Version"] == "2")
        #expect(hit.headers["Content-Length"] != "0")
        #expect(harness.sent == 2)
    }

    @Test("Only Last-Modified: revalidated with If-Modified-Since alone")
    func lastModifiedOnly() async throws {
        let harness = CacheHarness()
        let lastModified = harness.clock.httpDate(-5)
        harness.serve(["Last-Modified": lastModified, "Cache-Control": "no-cache"])
        _ = try await harness.get()
        _ = try await harness.get()
        let sent = try #require(harness.stubs.requests.last)
        #expect(sent.headers["If-Modified-Since"] == lastModified)
        #expect(sent.headers["If-None-Match"] == nil)
    }

    @Test("A 200 to a revalidation replaces the stored response")
    func newRepresentation() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=10", "ETag": "\"v1\""])
        _ = try await harness.get()
        harness.clock.advance(11)
        harness.serve(["Cache-Control": "max-age=10", "ETag": "\"v2\""], body: "v2")
        #expect(try await harness.get().value == "v2")
        #expect(try await harness.get().value == "v2")
        #expect(harness.sent == 2)
    }

    @Test("stale-if-error serves the stale response when the connection fails or the server answers 5xx, within its seconds")
    func staleIfError() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=10, stale-if-error=60"])
        _ = try await harness.get()
        harness.clock.advance(20)
        harness.stubs.register(.get, "/items", .failure(URLError(.networkConnectionLost)))
        let offline = try await harness.get()
        #expect(offline.value == "v1")
        #expect(HTTPCache.outcome(of: offline.response) == .stale)
        harness.stubs.register(.get, "/items", .status(503))
        #expect(try await harness.get().value == "v1")
        harness.clock.advance(60)
        await #expect(throws: APIError.self) { try await harness.get() }
    }

    @Test("Without stale-if-error, or with must-revalidate, a failure is the caller's")
    func noStaleOnError() async throws {
        for cacheControl in ["max-age=10", "max-age=10, stale-if-error=60, must-revalidate"] {
            let harness = CacheHarness()
            harness.serve(["Cache-Control": cacheControl])
            _ = try await harness.get()
            harness.clock.advance(20)
            harness.stubs.register(.get, "/items", .failure(URLError(.networkConnectionLost)))
            await #expect(throws: APIError.self, "\(cacheControl)") { try await harness.get() }
        }
    }

    @Test("A request's stale-if-error allows a stale response on errors too")
    func requestStaleIfError() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=10"])
        _ = try await harness.get()
        harness.clock.advance(20)
        harness.stubs.register(.get, "/items", .failure(URLError(.timedOut)))
        #expect(try await harness.get(["Cache-Control": "stale-if-error=30"]).value == "v1")
    }
}

@Suite("HTTPCache replacing stored responses")
struct HTTPCacheReplacementTests {
    @Test("A no-store answer to a revalidation drops the stored response, which stale-if-error then cannot serve")
    func noStoreReplaces() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=10, stale-if-error=600"])
        _ = try await harness.get()
        harness.clock.advance(11)
        harness.serve(["Cache-Control": "no-store"], body: "v2")
        #expect(try await harness.get().value == "v2")
        harness.stubs.register(.get, "/items", .failure(URLError(.networkConnectionLost)))
        await #expect(throws: APIError.self) { try await harness.get() }
    }

    @Test("A HEAD's 200 with the same ETag updates the stored headers (§4.3.5); with another ETag it does not")
    func headUpdatesMetadata() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60", "ETag": "\"v1\"", "X-Version": "1"])
        _ = try await harness.get()
        let client = harness.client
        harness.stubs.register(.head, "/items", StubResponse(headers: ["ETag": "\"v2\"", "X-Version": "3"]))
        _ = try await client.response(for: TestEndpoint(method: .head), as: Empty.self)
        #expect(try await harness.get().headers["X-Version"] == "1")
        harness.stubs.register(.head, "/items", StubResponse(headers: ["ETag": "\"v1\"", "X-Version": "2"]))
        _ = try await client.response(for: TestEndpoint(method: .head), as: Empty.self)
        let hit = try await harness.get()
        #expect(HTTPCache.outcome(of: hit.response) == .hit)
        #expect(hit.headers["X-Version"] == "2")
        #expect(harness.stubs.requests(.get, "/items").count == 1)
    }

    @Test("A server's own X-Cache header is not taken for the cache's outcome")
    func foreignXCache() async throws {
        let harness = CacheHarness()
        harness.serve(["X-Cache": "HIT"])
        #expect(HTTPCache.outcome(of: try await harness.get().response) == nil)
    }
}
