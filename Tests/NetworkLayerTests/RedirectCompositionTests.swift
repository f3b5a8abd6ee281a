import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects beside the features a real app turns on with them: every hop goes through the
/// interceptors, so the cache stores each response under its own URL and a log shows every hop.
@Suite("Redirects with the cache, the log and typed requests")
struct RedirectCompositionTests {
    @Test(
        "A redirect target's response is stored under its own URL: the redirecting URL is asked again, the target answered from the cache",
        arguments: TransportKind.all)
    func cacheStoresTheTargetUnderItsOwnURL(transport: TransportKind) async throws {
        let server = try RouteServer { path, _ in
            switch path {
            case "/a": RouteServer.Answer(status: 302, headers: ["Location": "/b"])
            case "/b": RouteServer.Answer(status: 200, headers: ["Cache-Control": "max-age=3600"], body: "b")
            default: RouteServer.Answer(status: 404)
            }
        }
        defer { server.stop() }
        let client = transport.makeClient(interceptors: [HTTPCache()])
        let first = try await client.send(with: server.request("/a"), as: String.self)
        let second = try await client.response(with: server.request("/a"))
        #expect(first == "b")
        #expect(String(decoding: second.body, as: UTF8.self) == "b")
        // The 302 is not stored, so /a goes out again; /b is fresh, and its hop is answered from the cache.
        #expect(server.paths == ["/a", "/b", "/a"])
        #expect(HTTPCache.outcome(of: second) == .hit)
        let direct = try await client.response(with: server.request("/b"))
        #expect(HTTPCache.outcome(of: direct) == .hit)
        #expect(server.paths.count == 3)
    }

    @Test(
        "A log shows a cross-origin redirect hop and says a response came from the cache, with nothing sent",
        arguments: TransportKind.all)
    func logShowsHopsAndCacheAnswers(transport: TransportKind) async throws {
        let target = try RouteServer { _, _ in RouteServer.Answer(status: 200, headers: ["Cache-Control": "max-age=60"], body: "{}") }
        defer { target.stop() }
        let origin = try RouteServer { _, _ in RouteServer.Answer(status: 302, headers: ["Location": target.baseURL + "/b?token=x"]) }
        defer { origin.stop() }
        let lines = LockedArray<String>()
        let logger = NetworkLogger { lines.append($0) }
        let client = transport.makeClient(interceptors: [HTTPCache(), logger])
        _ = try await client.response(with: origin.request("/a"))
        _ = try await client.response(with: target.request("/b?token=x"))
        let log = lines.elements
        #expect(log.count == 3)
        #expect(log.first == "GET \(origin.baseURL)/a → 302 Found, redirected to \(target.baseURL)/b?token=<redacted>")
        #expect(log.dropFirst().first?.hasPrefix("GET \(origin.baseURL)/a → 200 OK, ") == true)
        #expect(log.last?.hasPrefix("GET \(target.baseURL)/b?token=<redacted> → 200 OK, from the cache, nothing sent, ") == true)
        #expect(target.paths == ["/b?token=x"])
    }

    @Test("Every hop is an event every observer sees, with where it was redirected from and whether it reached the transport")
    func hopsAreEvents() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/a") { _ in StubResponse(statusCode: 301, headers: ["Location": "/b", "Cache-Control": "max-age=60"]) }
        stubs.register(.get, "/b", .json("{}"))
        let events = LockedArray<ExchangeMetrics>()
        let monitor = EventMonitor { event in
            if case .exchangeFinished(let metrics) = event { events.append(metrics) }
        }
        let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [HTTPCache(), monitor]))
        let a = try #require(URL(string: "https://api.example.com/a"))
        _ = try await client.response(with: URLRequest(url: a))
        _ = try await client.response(with: URLRequest(url: a))
        let seen = events.elements.map {
            ($0.request.url?.path ?? "", $0.response.statusCode, $0.context.redirectedFrom, $0.reachedTransport)
        }
        #expect(seen.map(\.0) == ["/a", "/b", "/a", "/b"])
        #expect(seen.map(\.1) == [301, 200, 301, 200])
        #expect(seen.map(\.2) == [[], [a], [], [a]])
        // The 301 is fresh for 60 s, so the second call's first hop is the cache's; its target's 200
        // has no freshness of its own, so that hop reaches the transport again.
        #expect(seen.map(\.3) == [true, true, false, true])
        #expect(stubs.requests(.get, "/a").count == 1)
        #expect(stubs.requests(.get, "/b").count == 2)
    }
}

@Suite("Typed requests keep their endpoint's options")
struct TypedRequestOptionsTests {
    private enum NotesAPI: Endpoint {
        case export
        var base: String { "https://api.example.com" }
        var path: String { "/export" }
        var options: CallOptions { CallOptions(acceptableStatusCodes: [303], redirectPolicy: .doNotFollow) }
    }

    @Test("A typed request wrapping an endpoint that does not follow redirects does not follow them either")
    func redirectPolicyIsKept() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/export") { _ in StubResponse(statusCode: 303, headers: ["Location": "/elsewhere"]) }
        stubs.register(.get, "/elsewhere", .json("{}"))
        let client = NetworkClient(transport: stubs)
        let response = try await client.response(for: Request<Empty>(NotesAPI.export))
        #expect(response.response.statusCode == 303)
        #expect(stubs.requests(.get, "/elsewhere").isEmpty)
    }
}

@Suite("Credentials on redirect hops through the interceptors")
struct RedirectHopCredentialTests {
    /// Puts a credential on every exchange it sees, in `intercept` rather than `adapt`.
    private struct KeyOnEveryExchange: Interceptor {
        func intercept(
            _ request: URLRequest, context: RequestContext, next: (URLRequest) async throws(APIError) -> TransportResponse
        ) async throws(APIError) -> TransportResponse {
            var request = request
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            request.setValue("k-1", forHTTPHeaderField: "X-API-Key")
            return try await next(request)
        }
    }

    @Test("A credential an interceptor adds on every hop does not reach another origin; on the same origin it does")
    func interceptorCredentialStaysHome() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/a") { _ in StubResponse(statusCode: 302, headers: ["Location": "https://cdn.example.net/b"]) }
        stubs.register(.get, "/b") { _ in StubResponse(statusCode: 302, headers: ["Location": "https://api.example.com/c"]) }
        stubs.register(.get, "/c", .json("{}"))
        let client = NetworkClient(
            transport: stubs,
            configuration: ClientConfiguration(
                interceptors: [KeyOnEveryExchange()], redirectPolicy: RedirectPolicy(sensitiveHeaders: ["X-API-Key"])))
        _ = try await client.response(with: URLRequest(url: try #require(URL(string: "https://api.example.com/a"))))
        #expect(stubs.requests(.get, "/a").first?.headers["Authorization"] == "Bearer secret")
        let away = try #require(stubs.requests(.get, "/b").first)
        #expect(away.headers["Authorization"] == nil)
        #expect(away.headers["X-API-Key"] == nil)
        #expect(stubs.requests(.get, "/c").first?.headers["Authorization"] == "Bearer secret", "back on the attempt's origin")
    }

    @Test("A credential the redirect policy's onRedirect puts back goes to the other origin: the user's explicit choice")
    func onRedirectMayForward() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/a") { _ in StubResponse(statusCode: 302, headers: ["Location": "https://cdn.example.net/b"]) }
        stubs.register(.get, "/b", .json("{}"))
        let trusted = RedirectPolicy(onRedirect: { _, next in
            var next = next
            next.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            return next
        })
        let client = NetworkClient(
            transport: stubs, configuration: ClientConfiguration(interceptors: [KeyOnEveryExchange()], redirectPolicy: trusted))
        _ = try await client.response(with: URLRequest(url: try #require(URL(string: "https://api.example.com/a"))))
        #expect(stubs.requests(.get, "/b").first?.headers["Authorization"] == "Bearer secret")
    }
}
