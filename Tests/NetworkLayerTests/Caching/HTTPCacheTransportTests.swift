import Foundation
import NetworkLayer
import TestSupport
import Testing

@Suite("HTTPCache against a real server, over every transport")
struct HTTPCacheTransportTests {
    @Test(
        "Fresh hits, revalidation with both validators, a 304's headers stored, stale-if-error on a dropped connection",
        arguments: TransportKind.all)
    func cacheOverTransport(transport: TransportKind) async throws {
        let clock = FakeClock()
        let lastModified = clock.httpDate(-1000)
        let dropping = Locked(false)
        let validators = LockedArray<String>()
        let server = try ScriptedServer { connection in
            if dropping.withLock({ $0 }) { return }  // Closes the connection without an answer.
            if let tag = connection.headers["if-none-match"] {
                validators.append("If-None-Match: \(tag)")
                validators.append("If-Modified-Since: \(connection.headers["if-modified-since"] ?? "none")")
                connection.writeHead(
                    status: 304,
                    headers: [
                        "Cache-Control": "max-age=10, stale-if-error=600", "X-Version": "2", "Date": clock.httpDate(), "ETag": "\"v1\"",
                    ])
                return
            }
            connection.writeHead(headers: [
                "Cache-Control": "max-age=10, stale-if-error=600", "ETag": "\"v1\"", "Last-Modified": lastModified, "X-Version": "1",
                "Date": clock.httpDate(), "Content-Length": "2",
            ])
            connection.write(Data("v1".utf8))
        }
        defer { server.stop() }
        let cache = HTTPCache(now: { clock.now })
        let client = transport.makeClient(interceptors: [cache])
        let endpoint = TestEndpoint(base: server.baseURL)

        #expect(try await client.response(for: endpoint, as: String.self).value == "v1")
        clock.advance(5)
        let hit = try await client.response(for: endpoint, as: String.self)
        #expect(HTTPCache.outcome(of: hit.response) == .hit)
        #expect(server.accepted == 1)

        clock.advance(6)
        let revalidated = try await client.response(for: endpoint, as: String.self)
        #expect(revalidated.statusCode == 200)
        #expect(revalidated.value == "v1")
        #expect(HTTPCache.outcome(of: revalidated.response) == .revalidated)
        #expect(revalidated.headers["X-Version"] == "2")
        #expect(validators.elements == ["If-None-Match: \"v1\"", "If-Modified-Since: \(lastModified)"])
        #expect(server.accepted == 2)

        clock.advance(20)
        dropping.withLock { $0 = true }
        let stale = try await client.response(for: endpoint, as: String.self)
        #expect(stale.value == "v1")
        #expect(HTTPCache.outcome(of: stale.response) == .stale)
        #expect(server.accepted >= 3)
    }
}
