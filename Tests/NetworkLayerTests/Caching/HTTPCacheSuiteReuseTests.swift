import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

/// Cases of the public cache conformance suite about what a stored response answers, ported by id;
/// the suite's `pause_after` is a 3 s pause of the fake clock.
@Suite("HTTPCache against cache-tests reuse cases")
struct HTTPCacheSuiteReuseTests {
    /// A client over the harness's cache that takes any status as it comes.
    private func anyStatusClient(_ harness: CacheHarness) -> NetworkClient {
        NetworkClient(
            transport: harness.stubs,
            configuration: ClientConfiguration(acceptableStatusCodes: Set(200..<600), interceptors: [harness.cache]))
    }

    @Test("cc-response headers-omit-headers-listed-in-Cache-Control-no-cache(-single): the named fields wait, the rest is reused")
    func noCacheFieldNames() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": #"no-cache="a, b", max-age=3600"#, "a": "1", "b": "2", "c": "3"])
        _ = try await harness.get()
        harness.clock.advance(3)
        let cached = try await harness.get()
        #expect(HTTPCache.outcome(of: cached.response) == .hit)
        #expect(cached.headers["a"] == nil && cached.headers["b"] == nil)
        #expect(cached.headers["c"] == "3")
    }

    @Test("headers headers-omit-headers-listed-in-Connection: fields the Connection names are not stored")
    func connectionFields() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=3600", "Connection": "a, b", "a": "1", "b": "2", "c": "3"])
        _ = try await harness.get()
        let cached = try await harness.get()
        #expect(HTTPCache.outcome(of: cached.response) == .hit)
        #expect(cached.headers["a"] == nil && cached.headers["b"] == nil && cached.headers["Connection"] == nil)
        #expect(cached.headers["c"] == "3")
    }

    @Test("status status-200-must-understand, status-599-must-understand: must-understand overrides no-store for known statuses only")
    func mustUnderstand() async throws {
        for (status, reused) in [(200, true), (599, false)] {
            let harness = CacheHarness()
            harness.serve(["Cache-Control": "max-age=3600, no-store, must-understand"], status: status)
            let client = anyStatusClient(harness)
            for _ in 0..<2 { _ = try await client.response(for: TestEndpoint(), as: Data.self) }
            #expect((harness.sent == 1) == reused, "\(status)")
        }
    }

    @Test("cc-request ccreq-no-store: a request's no-store goes to the network")
    func requestNoStore() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=3600"])
        _ = try await harness.get()
        let answer = try await harness.get(["Cache-Control": "no-store"])
        #expect(harness.sent == 2)
        #expect(HTTPCache.outcome(of: answer.response) == nil)
    }

    @Test(
        "vary vary-normalise-lang-order, -lang-case, -lang-space: Accept-Language in any order and case",
        arguments: ["de, en", "eN, De", " en ,   de"])
    func acceptLanguage(second: String) async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=5000", "Vary": "Accept-Language"])
        _ = try await harness.get(["Accept-Language": "en, de"])
        _ = try await harness.get(["Accept-Language": second])
        #expect(harness.sent == 1)
    }

    @Test(
        "update304 304-etag-update-response-Content-Range, -Content-Encoding: a 304 updates them, returned and stored",
        arguments: ["Content-Range", "Content-Encoding"])
    func updatedOn304(field: String) async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=2", "ETag": #""e""#, field: "A"])
        _ = try await harness.get()
        harness.clock.advance(3)
        harness.serve(["Cache-Control": "max-age=3600", "ETag": #""e""#, field: "B"], status: 304)
        #expect(try await harness.get().headers[field] == "B")
        #expect(try await harness.get().headers[field] == "B")
    }

    @Test("cc-stale stale-if-error-cc-request: a response fresh for no time is kept for a request's stale-if-error")
    func requestStaleIfErrorOnMaxAgeZero() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=0"])
        _ = try await harness.get()
        harness.stubs.register(.get, "/items", .status(500))
        let answer = try await harness.get(["Cache-Control": "stale-if-error=3600"])
        #expect(answer.statusCode == 200)
        #expect(HTTPCache.outcome(of: answer.response) == .stale)
    }

    @Test(
        "conditional conditional-etag-*-respond(-multiple-*): a fresh stored response answers If-None-Match with a 304",
        arguments: [(#""abcdef""#, #""1234", "abcdef""#), (#"W/"abcdef""#, #"W/"abcdef""#), ("abcdef", "abcdef")])
    func noneMatch(etag: String, noneMatch: String) async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=3600", "ETag": etag])
        let client = anyStatusClient(harness)
        _ = try await client.response(for: TestEndpoint(), as: Data.self)
        let answer = try await client.response(for: TestEndpoint(headers: ["If-None-Match": noneMatch]), as: Data.self)
        #expect(answer.statusCode == 304)
        #expect(answer.headers["ETag"] == etag)
        #expect(harness.sent == 1)
        let other = try await client.response(for: TestEndpoint(headers: ["If-None-Match": #""other""#]), as: Data.self)
        #expect(other.statusCode == 200 && other.value == Data("v1".utf8))
        #expect(harness.sent == 1)
    }

    @Test(
        "partial partial-store-complete-reuse-partial(-no-last, -suffix): a fresh complete response answers a byte range",
        arguments: [("bytes=0-1", "01", "bytes 0-1/11"), ("bytes=1-", "1234567890", "bytes 1-10/11"), ("bytes=-1", "0", "bytes 10-10/11")])
    func range(range: String, text: String, contentRange: String) async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=3600"], body: "01234567890")
        let client = anyStatusClient(harness)
        _ = try await client.response(for: TestEndpoint(), as: Data.self)
        let answer = try await client.response(for: TestEndpoint(headers: ["Range": range]), as: Data.self)
        #expect(answer.statusCode == 206)
        #expect(answer.value == Data(text.utf8))
        #expect(answer.headers["Content-Range"] == contentRange)
        #expect(harness.sent == 1)
        _ = try await client.response(for: TestEndpoint(headers: ["Range": "bytes=0-1, 3-4"]), as: Data.self)
        #expect(harness.sent == 2, "several ranges go to the network")
    }

    @Test("A network response that claims the cache's marker header is not reported as coming from the cache")
    func forgedOutcomeHeader() async throws {
        let harness = CacheHarness()
        harness.serve([HTTPCache.outcomeHeader: "HIT"])
        let answer = try await harness.get()
        #expect(HTTPCache.outcome(of: answer.response) == nil)
        #expect(answer.headers[HTTPCache.outcomeHeader] == nil)
        harness.stubs.register(.post, "/items", StubResponse(headers: [HTTPCache.outcomeHeader: "STALE"]))
        let posted = try await harness.client.response(for: TestEndpoint(method: .post), as: Data.self)
        #expect(HTTPCache.outcome(of: posted.response) == nil)
    }
}
