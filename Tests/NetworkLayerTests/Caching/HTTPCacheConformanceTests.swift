import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

/// Cases of the public cache conformance suite (github.com/http-tests/cache-tests, `tests/*.mjs`),
/// ported by id: browser-applicable ones whose expectation RFC 9111 makes a MUST or SHOULD.
/// The suite's `pause_after` is a 3 s pause, here the fake clock's.
@Suite("HTTPCache against cache-tests cases")
struct HTTPCacheConformanceTests {
    @Test("cc-parse freshness-max-age-ignore-quoted, -ignore-quoted-rev: a max-age inside a quoted string is not one")
    func ignoreQuoted() async throws {
        #expect(try await CacheHarness.reused(["Cache-Control": #"extension="max-age=3600", max-age=1"#]) == false)
        #expect(try await CacheHarness.reused(["Cache-Control": #"max-age=1, extension="max-age=3600""#]) == false)
    }

    @Test("cc-parse freshness-max-age-leading-zero: max-age=003600 is an hour")
    func leadingZero() async throws {
        #expect(try await CacheHarness.reused(["Cache-Control": "max-age=003600"]))
    }

    @Test("cc-parse freshness-max-age-single-quoted: max-age='3600' is not a number")
    func singleQuoted() async throws {
        #expect(try await CacheHarness.reused(["Cache-Control": "max-age='3600'", "ETag": "\"a\""]) == false)
    }

    @Test("update304 304-lm-use-stored-Test-Header: a 304 that omits a header leaves the stored one")
    func useStored() async throws {
        let harness = CacheHarness()
        let lastModified = harness.clock.httpDate(-86_400)
        harness.serve(["Cache-Control": "max-age=1", "Last-Modified": lastModified, "Test-Header": "A"])
        _ = try await harness.get()
        harness.clock.advance(3)
        harness.serve(["Cache-Control": "max-age=3600", "Last-Modified": lastModified], status: 304)
        let validated = try await harness.get()
        #expect(HTTPCache.outcome(of: validated.response) == .revalidated)
        #expect(validated.headers["Test-Header"] == "A")
    }

    @Test(
        "update304 304-etag-update-stored-*, 304-lm-update-response-*: a 304 updates the header, returned and stored",
        arguments: [
            ("Test-Header", "A", "B"), ("X-Content-Foo", "A", "B"), ("Content-Type", "text/plain", "text/plain;charset=utf-8"),
            ("Content-Location", "/foo", "/bar"), ("X-Frame-Options", "deny", "sameorigin"), ("Set-Cookie", "a=b", "a=c"),
        ])
    func updateStored(header: String, valueA: String, valueB: String) async throws {
        for validator in [("ETag", "\"etag-1\""), ("Last-Modified", CacheHarness().clock.httpDate(-86_400))] {
            let harness = CacheHarness()
            harness.serve(["Cache-Control": "max-age=1", validator.0: validator.1, header: valueA])
            _ = try await harness.get()
            harness.clock.advance(3)
            harness.serve(["Cache-Control": "max-age=3600", validator.0: validator.1, header: valueB], status: 304)
            let validated = try await harness.get()
            #expect(HTTPCache.outcome(of: validated.response) == .revalidated)
            #expect(validated.headers[header] == valueB, "\(validator.0) returned")
            harness.clock.advance(3)
            let cached = try await harness.get()
            #expect(HTTPCache.outcome(of: cached.response) == .hit)
            #expect(cached.headers[header] == valueB, "\(validator.0) stored")
        }
    }

    @Test(
        "invalidation invalidate-<method>, -location, -cl, and -failed: a success forgets the URL and its same-origin locations",
        arguments: ["POST", "PUT", "DELETE", "M-SEARCH"])
    func invalidate(method: String) async throws {
        let harness = CacheHarness()
        let client = NetworkClient(
            transport: harness.stubs,
            configuration: ClientConfiguration(acceptableStatusCodes: Set(200..<600), interceptors: [harness.cache]))
        let unsafe = HTTPMethod(rawValue: method)
        for path in ["/items", "/location", "/content-location"] {
            harness.stubs.register(.get, path, StubResponse(headers: ["Cache-Control": "max-age=3600"], body: Data("[]".utf8)))
        }
        func get(_ path: String) async throws { _ = try await client.response(for: TestEndpoint(path: path), as: Data.self) }
        func sendUnsafe() async throws {
            _ = try await client.response(
                for: TestEndpoint(method: unsafe, task: .requestData(Data("abc".utf8), contentType: "text/plain")), as: Data.self)
        }
        for path in ["/items", "/location", "/content-location"] { try await get(path) }
        harness.stubs.register(unsafe, "/items", .status(500))
        try await sendUnsafe()
        try await get("/items")
        #expect(harness.stubs.requests(.get, "/items").count == 1, "-failed")
        harness.stubs.register(
            unsafe, "/items", StubResponse(statusCode: 200, headers: ["Location": "/location", "Content-Location": "/content-location"]))
        try await sendUnsafe()
        for path in ["/items", "/location", "/content-location"] {
            try await get(path)
            #expect(harness.stubs.requests(.get, path).count == 2, "\(path)")
        }
    }

    /// A case of the suite's `vary` group: the first request's headers, the response's `Vary`, the
    /// second request's headers, and whether the second is answered from the cache.
    struct VaryCase: Sendable, CustomTestStringConvertible {
        let id: String
        let first: HTTPHeaders
        let vary: String
        let second: HTTPHeaders
        let reused: Bool
        var testDescription: String { id }
    }

    static let varyCases = [
        VaryCase(id: "vary-match", first: ["Foo": "1"], vary: "Foo", second: ["Foo": "1"], reused: true),
        VaryCase(id: "vary-no-match", first: ["Foo": "1"], vary: "Foo", second: ["Foo": "2"], reused: false),
        VaryCase(id: "vary-omit", first: ["Foo": "1"], vary: "Foo", second: [:], reused: false),
        VaryCase(id: "vary-cache-key", first: ["Foo": "1", "Other": "2"], vary: "Foo", second: ["Foo": "1", "Other": "3"], reused: true),
        VaryCase(
            id: "vary-2-match", first: ["Foo": "1", "Bar": "abc"], vary: "Foo, Bar", second: ["Foo": "1", "Bar": "abc"], reused: true),
        VaryCase(
            id: "vary-2-no-match", first: ["Foo": "1", "Bar": "abc"], vary: "Foo, Bar", second: ["Foo": "2", "Bar": "abc"], reused: false),
        VaryCase(id: "vary-2-match-omit", first: ["Foo": "1"], vary: "Foo, Bar", second: [:], reused: false),
        VaryCase(
            id: "vary-3-order", first: ["Foo": "1", "Bar": "abc4", "Baz": "789"], vary: "Foo, Bar, Baz",
            second: ["Foo": "1", "Bar": "abc", "Baz": "789"], reused: false),
        VaryCase(
            id: "vary-3-omit", first: ["Foo": "1", "Baz": "789"], vary: "Foo, Bar, Baz", second: ["Foo": "1", "Baz": "789"], reused: true),
        VaryCase(id: "vary-star", first: ["Foo": "1", "Baz": "789"], vary: "*", second: ["Baz": "789"], reused: false),
        VaryCase(id: "vary-normalise-space", first: ["Foo": "1,2"], vary: "Foo", second: ["Foo": " 1, 2 "], reused: true),
    ]

    @Test("vary: secondary keys", arguments: varyCases)
    func vary(_ test: VaryCase) async throws {
        let harness = CacheHarness()
        harness.serve([
            "Expires": harness.clock.httpDate(5000), "Last-Modified": harness.clock.httpDate(-3000), "Vary": test.vary,
        ])
        _ = try await harness.get(test.first)
        _ = try await harness.get(test.second)
        #expect((harness.sent == 1) == test.reused)
    }

    @Test("vary-invalidate: a response for other Vary values does not replace the stored one")
    func varyInvalidate() async throws {
        let harness = CacheHarness()
        harness.stubs.register(.get, "/items") { request in
            StubResponse(
                headers: ["Cache-Control": "max-age=5000", "Vary": "Foo"], body: Data("foo_\(request.headers["Foo"] ?? "")".utf8))
        }
        #expect(try await harness.get(["Foo": "1"]).value == "foo_1")
        #expect(try await harness.get(["Foo": "2"]).value == "foo_2")
        let cached = try await harness.get(["Foo": "1"])
        #expect(cached.value == "foo_1")
        #expect(HTTPCache.outcome(of: cached.response) == .hit)
    }

    @Test(
        "heuristic heuristic-<status>-cached and -not_cached: heuristic freshness by status, and for any status with public",
        arguments: [
            (200, true), (201, false), (202, false), (203, true), (204, true), (403, false), (404, true), (405, true), (410, true),
            (414, true), (501, true), (502, false), (503, false), (504, false), (599, false),
        ])
    func heuristicStatus(status: Int, reused: Bool) async throws {
        for isPublic in status == 599 ? [false, true] : [false] {
            let harness = CacheHarness()
            let client = NetworkClient(
                transport: harness.stubs,
                configuration: ClientConfiguration(acceptableStatusCodes: Set(200..<600), interceptors: [harness.cache]))
            var headers: HTTPHeaders = ["Last-Modified": harness.clock.httpDate(-86_400), "Date": harness.clock.httpDate()]
            if isPublic { headers.add(name: "Cache-Control", value: "public") }
            harness.stubs.register(.get, "/items", StubResponse(statusCode: status, headers: headers, body: Data(status == 204 ? [] : [1])))
            for _ in 0..<2 { _ = try await client.response(for: TestEndpoint(), as: Data.self) }
            #expect((harness.sent == 1) == (reused || isPublic), "public: \(isPublic)")
        }
    }
}
