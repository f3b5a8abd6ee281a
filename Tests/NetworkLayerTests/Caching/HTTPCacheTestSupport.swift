import Foundation
import NetworkLayerTesting

@testable import NetworkLayer

/// A clock a test moves by hand.
final class FakeClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_700_000_000))

    /// The present.
    var now: Date { date.withLock { $0 } }

    /// Moves the present `seconds` on.
    func advance(_ seconds: TimeInterval) {
        date.withLock { $0 += seconds }
    }

    /// The present, or `offset` seconds from it, as an IMF-fixdate.
    func httpDate(_ offset: TimeInterval = 0) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: now.addingTimeInterval(offset))
    }
}

/// A cache over stubs and a fake clock, and a client through it.
struct CacheHarness {
    let clock = FakeClock()
    let stubs = StubTransport()
    let storage = MemoryCacheStorage()
    var cache: HTTPCache { HTTPCache(storage: storage, now: { [clock] in clock.now }) }
    var client: NetworkClient { NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [cache])) }

    /// Answers `GET /items` with `body` and `headers` (a `Date` of the present added unless given).
    func serve(_ headers: HTTPHeaders, body: String = "v1", status: Int = 200) {
        var headers = headers
        if headers["Date"] == nil { headers.add(name: "Date", value: clock.httpDate()) }
        stubs.register(.get, "/items", StubResponse(statusCode: status, headers: headers, body: Data(body.utf8)))
    }

    /// Gets `/items` as text, with `headers` on the request.
    func get(_ headers: HTTPHeaders = [:]) async throws(APIError) -> Response<String> {
        try await client.response(for: TestEndpoint(headers: headers), as: String.self)
    }

    /// How many requests reached the transport.
    var sent: Int { stubs.requests.count }

    /// Stores `v1` through `client` (fresh for 1 s, then `stale-while-revalidate` for 60 s, ETag `"a"`),
    /// lets it go stale, and serves `v2` (ETag `"b"`, fresh for an hour) for a revalidation to bring.
    func storeStaleWhileRevalidate(through client: NetworkClient) async throws(APIError) {
        serve(["Cache-Control": "max-age=1, stale-while-revalidate=60", "ETag": #""a""#], body: "v1")
        _ = try await client.response(for: TestEndpoint(), as: String.self)
        clock.advance(3)
        serve(["Cache-Control": "max-age=3600", "ETag": #""b""#], body: "v2")
    }

    /// Gets `/items`, then again after each pause of the clock, and returns how many requests had
    /// reached the transport after each get: `[1, 1, 2]` is a miss, a hit, then a miss.
    func sentAfterPauses(_ pauses: [TimeInterval]) async throws(APIError) -> [Int] {
        _ = try await get()
        var counts = [sent]
        for pause in pauses {
            clock.advance(pause)
            _ = try await get()
            counts.append(sent)
        }
        return counts
    }

    /// Serves `headers`, gets `/items`, pauses 3 s (the suite's `pause_after`) and tells whether the
    /// second get came from the cache.
    static func reused(_ headers: HTTPHeaders) async throws -> Bool {
        let harness = CacheHarness()
        harness.serve(headers)
        return try await harness.sentAfterPauses([3]) == [1, 1]
    }
}
