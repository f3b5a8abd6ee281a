import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache beside authentication and a token refresh, the way an app with a signed-in user runs it:
/// responses to authorized requests are stored per credential, a refusal keeps them, and a refreshed
/// token revalidates them.
@Suite("HTTP cache with credentials")
struct HTTPCacheAuthorizationTests {
    /// A notes API: `/notes` answers `200` with `ETag: "v1"` and `private, max-age=…` to the token it
    /// accepts (a `304` to its `If-None-Match`), `401` to any other.
    private static func notesServer(accepted: Locked<String>, maxAge: Int) throws -> RouteServer {
        try RouteServer { _, headers in
            guard headers["authorization"] == "Bearer " + accepted.withLock({ $0 }) else { return RouteServer.Answer(status: 401) }
            let cacheHeaders = ["ETag": #""v1""#, "Cache-Control": "private, max-age=\(maxAge)"]
            if headers["if-none-match"] == #""v1""# { return RouteServer.Answer(status: 304, headers: cacheHeaders) }
            return RouteServer.Answer(status: 200, headers: cacheHeaders, body: #"["note"]"#)
        }
    }

    @Test("A private response to an authorized request is stored and answers the next call", arguments: TransportKind.all)
    func privateAuthorizedResponsesAreStored(transport: TransportKind) async throws {
        let server = try Self.notesServer(accepted: Locked("t1"), maxAge: 60)
        defer { server.stop() }
        let client = transport.makeClient(interceptors: [BearerTokenAuthenticator(token: "t1"), HTTPCache()])
        _ = try await client.response(with: server.request("/notes"))
        let second = try await client.response(with: server.request("/notes"))
        #expect(HTTPCache.outcome(of: second) == .hit)
        #expect(String(decoding: second.body, as: UTF8.self) == #"["note"]"#)
        #expect(server.paths == ["/notes"])
    }

    @Test(
        "A refresh keeps the cache: the revalidation's 401 evicts nothing, and the retry with the new token is conditional and gets a 304",
        arguments: TransportKind.all)
    func refreshRevalidates(transport: TransportKind) async throws {
        let accepted = Locked("old")
        let server = try Self.notesServer(accepted: accepted, maxAge: 0)
        defer { server.stop() }
        let auth = RefreshingAuthenticator(token: "old") { _ in "new" }
        let client = transport.makeClient(interceptors: [auth, HTTPCache()])
        _ = try await client.response(with: server.request("/notes"))
        accepted.withLock { $0 = "new" }
        let refreshed = try await client.response(with: server.request("/notes"))
        #expect(refreshed.statusCode == 200)
        #expect(String(decoding: refreshed.body, as: UTF8.self) == #"["note"]"#)
        #expect(HTTPCache.outcome(of: refreshed) == .revalidated)
        let sent = server.received.elements
        #expect(sent.map { $0.headers["authorization"] } == ["Bearer old", "Bearer old", "Bearer new"])
        #expect(sent.map { $0.headers["if-none-match"] } == [nil, #""v1""#, #""v1""#])
        // The new token's later calls find the entries too.
        let later = try await client.response(with: server.request("/notes"))
        #expect(HTTPCache.outcome(of: later) == .revalidated)
        #expect(sent.count + 1 == server.received.count)
        #expect(server.received.elements.last?.headers["if-none-match"] == #""v1""#)
    }

    @Test("One credential's stored response never answers another's, and a sign-out drops a credential's partition")
    func partitionsAreApart() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/me") { request in
            StubResponse(
                statusCode: 200, headers: ["Cache-Control": "private, max-age=600"],
                body: Data((request.headers["Authorization"] ?? "none").utf8))
        }
        let token = Locked("ada")
        let cache = HTTPCache()
        let client = NetworkClient(
            transport: stubs, configuration: ClientConfiguration(interceptors: [BearerTokenAuthenticator { token.withLock { $0 } }, cache]))
        let url = try #require(URL(string: "https://api.example.com/me"))
        #expect(try await client.send(with: URLRequest(url: url), as: String.self) == "Bearer ada")
        token.withLock { $0 = "bob" }
        #expect(try await client.send(with: URLRequest(url: url), as: String.self) == "Bearer bob")
        token.withLock { $0 = "ada" }
        let again = try await client.response(with: URLRequest(url: url))
        #expect(String(decoding: again.body, as: UTF8.self) == "Bearer ada")
        #expect(HTTPCache.outcome(of: again) == .hit)
        #expect(stubs.requests(.get, "/me").count == 2)

        cache.removeResponses(authorization: "Bearer ada")
        let afterSignOut = try await client.response(with: URLRequest(url: url))
        #expect(HTTPCache.outcome(of: afterSignOut) == nil)
        #expect(stubs.requests(.get, "/me").count == 3)
        token.withLock { $0 = "bob" }
        #expect(HTTPCache.outcome(of: try await client.response(with: URLRequest(url: url))) == .hit)
    }

    @Test("A request's cachePolicy is honoured: a reload goes to the server, a return-cache-data answers stale, don't-load answers 504")
    func cachePolicies() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/list") { _ in StubResponse(statusCode: 200, headers: ["Cache-Control": "max-age=60"], body: Data("[]".utf8))
        }
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let client = NetworkClient(
            transport: stubs, configuration: ClientConfiguration(interceptors: [HTTPCache(now: { clock.withLock { $0 } })]))
        let url = try #require(URL(string: "https://api.example.com/list"))
        _ = try await client.response(with: URLRequest(url: url))
        var reload = URLRequest(url: url)
        reload.cachePolicy = .reloadIgnoringLocalCacheData
        #expect(HTTPCache.outcome(of: try await client.response(with: reload)) == nil)
        #expect(stubs.requests(.get, "/list").count == 2)
        var revalidate = URLRequest(url: url)
        revalidate.cachePolicy = .reloadRevalidatingCacheData
        _ = try await client.response(with: revalidate)
        #expect(stubs.requests(.get, "/list").count == 3)

        clock.withLock { $0 += 3600 }
        var elseLoad = URLRequest(url: url)
        elseLoad.cachePolicy = .returnCacheDataElseLoad
        #expect(HTTPCache.outcome(of: try await client.response(with: elseLoad)) == .stale)
        #expect(stubs.requests(.get, "/list").count == 3)
        var dontLoad = URLRequest(url: try #require(URL(string: "https://api.example.com/other")))
        dontLoad.cachePolicy = .returnCacheDataDontLoad
        await #expect(throws: APIError.self) { try await client.response(with: dontLoad) }
        #expect(stubs.requests(.get, "/other").isEmpty)
    }
}
