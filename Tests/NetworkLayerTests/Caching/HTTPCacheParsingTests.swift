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
