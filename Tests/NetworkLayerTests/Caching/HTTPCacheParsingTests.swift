import Foundation
import Testing

@testable import NetworkLayer

@Suite("HTTPCache header parsing and storage")
struct HTTPCacheParsingTests {
    @Test("Cache-Control: names any case, quoted values, the first of duplicates, bad numbers as 0, huge ones capped")
    func cacheControl() {
        let directives = CacheControl(#"Max-Age=30, max-age=99, no-cache="Set-Cookie, X", private , s-maxage=abc, min-fresh=99999999999"#)
        #expect(directives.seconds("max-age") == 30)
        #expect(directives.directives["no-cache"] == .some("Set-Cookie, X"))
        #expect(directives.contains("private"))
        #expect(directives.seconds("s-maxage") == 0)
        #expect(directives.seconds("min-fresh") == CacheControl.maximumSeconds)
        #expect(CacheControl(#"max-age="5""#).seconds("max-age") == 5)
        #expect(CacheControl("max-stale").maxStale == CacheControl.maximumSeconds)
        #expect(CacheControl(nil).directives.isEmpty)
        #expect(CacheControl(",,  ,").directives.isEmpty)
    }

    @Test("HTTP dates: IMF-fixdate and the obsolete RFC 850 and asctime forms; others are not dates")
    func dates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        for invalid in [
            "0", "", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "tomorrow",
        ] {
            #expect(HTTPDate.parse(invalid) == nil, "\(invalid)")
        }
    }

    @Test("MemoryCacheStorage keeps within its bytes by forgetting the least recently used key")
    func leastRecentlyUsed() throws {
        let storage = MemoryCacheStorage(capacity: 3000)
        func entry(_ size: Int) -> [CachedResponse] {
            [CachedResponse(response: HTTPResponse(statusCode: 200, body: Data(count: size)), requestTime: Date(), responseTime: Date())]
        }
        storage.setResponses(entry(1000), for: "a")
        storage.setResponses(entry(1000), for: "b")
        _ = storage.responses(for: "a")
        storage.setResponses(entry(1000), for: "c")
        #expect(storage.totalCost <= 3000)
        #expect(storage.responses(for: "b").isEmpty)
        #expect(!storage.responses(for: "a").isEmpty)
        #expect(!storage.responses(for: "c").isEmpty)
        storage.setResponses(entry(5000), for: "huge")
        #expect(storage.responses(for: "huge").isEmpty)
        storage.setResponses([], for: "a")
        #expect(storage.responses(for: "a").isEmpty)
    }
}

@Suite("DiskCacheStorage")
struct DiskCacheStorageTests {
    private func makeDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("HTTPCacheTests-\(UUID().uuidString)")
    }

    private func entry(_ body: String, size: Int = 0) -> [CachedResponse] {
        [
            CachedResponse(
                response: HTTPResponse(
                    statusCode: 200, headers: ["ETag": "\"a\"", "Cache-Control": "max-age=60"], body: Data(body.utf8) + Data(count: size),
                    url: URL(string: "https://example.com/a")),
                requestTime: Date(timeIntervalSince1970: 1000), responseTime: Date(timeIntervalSince1970: 1001),
                varyingRequestHeaders: ["Accept-Language": "en"])
        ]
    }

    @Test("Responses survive a new store on the same directory, as after a restart")
    func survivesRestart() throws {
        let directory = makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try DiskCacheStorage(directory: directory).setResponses(entry("v1"), for: "https://example.com/a")
        let reopened = try DiskCacheStorage(directory: directory)
        #expect(reopened.responses(for: "https://example.com/a") == entry("v1"))
        #expect(reopened.totalSize > 0)
    }

    @Test("A corrupt file is a miss, deleted, and the next write works")
    func corruptEntry() throws {
        let directory = makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try DiskCacheStorage(directory: directory)
        storage.setResponses(entry("v1"), for: "k")
        let file = try #require(FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).first)
        try Data("{\"key\":\"k\",\"respo".utf8).write(to: file)
        #expect(storage.responses(for: "k").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        storage.setResponses(entry("v2"), for: "k")
        #expect(storage.responses(for: "k") == entry("v2"))
    }

    @Test("Past its bytes, the least recently used file is deleted")
    func evictsLeastRecentlyUsed() throws {
        let directory = makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try DiskCacheStorage(directory: directory, capacity: 4000)
        storage.setResponses(entry("a", size: 1000), for: "a")
        storage.setResponses(entry("b", size: 1000), for: "b")
        #expect(!storage.responses(for: "a").isEmpty)
        storage.setResponses(entry("c", size: 1000), for: "c")
        #expect(storage.totalSize <= 4000)
        #expect(storage.responses(for: "b").isEmpty)
        #expect(!storage.responses(for: "a").isEmpty)
        #expect(!storage.responses(for: "c").isEmpty)
    }

    @Test("Two clients over the same directory: the second answers from what the first stored")
    func twoClients() async throws {
        let directory = makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = CacheHarness()
        harness.serve(["Cache-Control": "max-age=60"])
        let clock = harness.clock
        for _ in 0..<2 {
            let cache = HTTPCache(storage: try DiskCacheStorage(directory: directory), now: { clock.now })
            let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
            #expect(try await client.response(for: TestEndpoint(), as: String.self).value == "v1")
        }
        #expect(harness.sent == 1)
    }
}
