import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

@Suite("HTTPCache directives and storage rules (RFC 9111 §3, §5.2)")
struct HTTPCacheDirectiveTests {
    @Test("A response with no-store is not stored")
    func responseNoStore() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60, no-store"])
        #expect(try await harness.sentAfterPauses([0]) == [1, 2])
    }

    @Test("A request with no-store stores nothing")
    func requestNoStore() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        _ = try await harness.get(["Cache-Control": "no-store"])
        _ = try await harness.get()
        #expect(harness.sent == 2)
    }

    @Test("A response to a request with Authorization is stored, as a private cache may, and answers that credential only")
    func authorization() async throws {
        for directives in ["max-age=60", "private, max-age=60", "max-age=60, public", "max-age=60, must-revalidate"] {
            let harness = CacheHarness()
            harness.serve(["Cache-Control": directives])
            _ = try await harness.get(["Authorization": "Bearer a"])
            _ = try await harness.get(["Authorization": "Bearer a"])
            #expect(harness.sent == 1, "\(directives)")
            _ = try await harness.get(["Authorization": "Bearer b"])
            _ = try await harness.get()
            #expect(harness.sent == 3, "\(directives)")
        }
    }

    @Test("private is fine for a private cache")
    func privateResponse() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "private, max-age=60"])
        #expect(try await harness.sentAfterPauses([0]) == [1, 1])
    }

    @Test("s-maxage is a shared cache's: a private one ignores it")
    func sMaxAgeIgnored() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "s-maxage=60", "ETag": "\"a\""])
        #expect(try await harness.sentAfterPauses([0]) == [1, 2])
    }

    @Test("A response with no-cache is revalidated even when fresh")
    func responseNoCache() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60, no-cache", "ETag": "\"a\""])
        _ = try await harness.get()
        _ = try await harness.get()
        #expect(harness.stubs.requests.last?.headers["If-None-Match"] == "\"a\"")
    }

    @Test("A request's no-cache, and Pragma: no-cache, revalidate a fresh response")
    func requestNoCache() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60", "ETag": "\"a\""])
        _ = try await harness.get()
        _ = try await harness.get(["Cache-Control": "no-cache"])
        _ = try await harness.get(["Pragma": "no-cache"])
        #expect(harness.sent == 3)
    }

    @Test("immutable is not revalidated while fresh, even on a request's no-cache")
    func immutable() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60, immutable", "ETag": "\"a\""])
        _ = try await harness.get()
        _ = try await harness.get(["Cache-Control": "no-cache"])
        #expect(harness.sent == 1)
    }

    @Test("A request's max-age asks for a younger response")
    func requestMaxAge() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        _ = try await harness.get()
        harness.clock.advance(10)
        _ = try await harness.get(["Cache-Control": "max-age=20"])
        #expect(harness.sent == 1)
        _ = try await harness.get(["Cache-Control": "max-age=5"])
        #expect(harness.sent == 2)
    }

    @Test("A request's min-fresh asks for freshness left")
    func minFresh() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        _ = try await harness.get()
        harness.clock.advance(30)
        _ = try await harness.get(["Cache-Control": "min-fresh=20"])
        #expect(harness.sent == 1)
        _ = try await harness.get(["Cache-Control": "min-fresh=40"])
        #expect(harness.sent == 2)
    }

    @Test("A request's max-stale accepts a stale response, within its seconds, but not a must-revalidate one")
    func maxStale() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        _ = try await harness.get()
        harness.clock.advance(90)
        let stale = try await harness.get(["Cache-Control": "max-stale=60"])
        #expect(HTTPCache.outcome(of: stale.response) == .stale)
        _ = try await harness.get(["Cache-Control": "max-stale"])
        #expect(harness.sent == 1)
        _ = try await harness.get(["Cache-Control": "max-stale=10"])
        #expect(harness.sent == 2)

        let strict = CacheHarness()
        strict.serve(["Cache-Control": "max-age=60, must-revalidate"])
        _ = try await strict.get()
        strict.clock.advance(90)
        _ = try await strict.get(["Cache-Control": "max-stale"])
        #expect(strict.sent == 2)
    }

    @Test("only-if-cached answers from the cache, or 504 without sending anything")
    func onlyIfCached() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        let error = await #expect(throws: APIError.self) { try await harness.get(["Cache-Control": "only-if-cached"]) }
        #expect(error.map { if case .unacceptableStatusCode(504, _) = $0 { true } else { false } } == true)
        #expect(harness.sent == 0)
        _ = try await harness.get()
        let cached = try await harness.get(["Cache-Control": "only-if-cached"])
        #expect(cached.value == "v1")
        #expect(harness.sent == 1)
    }

    @Test("Vary keys responses on the request headers it names; Vary: * never matches")
    func vary() async throws {
        let harness = CacheHarness()
        harness.stubs.register(.get, "/items") { request in
            let language = request.headers["Accept-Language"] ?? "none"
            return StubResponse(
                headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: Data(language.utf8))
        }
        #expect(try await harness.get(["Accept-Language": "en"]).value == "en")
        #expect(try await harness.get(["Accept-Language": "fr"]).value == "fr")
        #expect(try await harness.get(["Accept-Language": "en"]).value == "en")
        #expect(try await harness.get(["Accept-Language": "fr"]).value == "fr")
        #expect(try await harness.get().value == "none")
        #expect(harness.sent == 3)

        let star = CacheHarness()
        star.serve(["Cache-Control": "max-age=60", "Vary": "*"])
        _ = try await star.get()
        _ = try await star.get()
        #expect(star.sent == 2)
    }

    @Test("A POST's success invalidates its target and a same-origin Location, not another origin's")
    func invalidation() async throws {
        let harness = CacheHarness()
        let client = harness.client
        for path in ["/items", "/items/1", "/other"] {
            harness.stubs.register(.get, path, StubResponse(headers: ["Cache-Control": "max-age=60"], body: Data("[]".utf8)))
        }
        harness.stubs.register(
            .post, "/items",
            StubResponse(statusCode: 201, headers: ["Location": "/items/1", "Content-Location": "https://elsewhere.example.com/other"]))
        for path in ["/items", "/items/1", "/other"] { _ = try await client.response(for: TestEndpoint(path: path), as: Data.self) }
        _ = try await client.response(for: TestEndpoint(method: .post), as: Data.self)
        for path in ["/items", "/items/1", "/other"] { _ = try await client.response(for: TestEndpoint(path: path), as: Data.self) }
        #expect(harness.stubs.requests(.get, "/items").count == 2)
        #expect(harness.stubs.requests(.get, "/items/1").count == 2)
        #expect(harness.stubs.requests(.get, "/other").count == 1)
    }

    @Test("An unsafe method's error response invalidates nothing")
    func errorDoesNotInvalidate() async throws {
        let harness = CacheHarness()
        let client = NetworkClient(
            transport: harness.stubs,
            configuration: ClientConfiguration(acceptableStatusCodes: Set(200..<600), interceptors: [harness.cache]))
        harness.serve(["Cache-Control": "max-age=60"])
        harness.stubs.register(.delete, "/items", .status(500))
        _ = try await client.response(for: TestEndpoint(), as: Data.self)
        _ = try await client.response(for: TestEndpoint(method: .delete), as: Data.self)
        _ = try await client.response(for: TestEndpoint(), as: Data.self)
        #expect(harness.stubs.requests(.get, "/items").count == 1)
    }

    @Test("Streams pass through the cache untouched")
    func streamsPassThrough() async throws {
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        _ = try await harness.get()
        let stream = try await harness.client.stream(for: TestEndpoint())
        #expect(HTTPCache.outcome(of: stream.response) == nil)
        #expect(harness.sent == 2)
    }
}
