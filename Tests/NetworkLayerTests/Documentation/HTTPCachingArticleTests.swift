import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article HTTPCaching.md, compiled and run against stubs.
    @Suite("Article: HTTP caching")
    struct HTTPCachingArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage

        struct OfflineFirst: Endpoint {
            var base: String { "https://api.themoviedb.org" }
            var path: String { "/3/movie/popular" }
            var method: HTTPMethod { .get }
            var headers: HTTPHeaders { ["Cache-Control": "max-stale=86400"] }
            var task: HTTPTask { .request }
        }

        /// The popular movies, fresh for `maxAge` seconds from `date`.
        private static func popular(maxAge: Int, date: Date = Date()) -> StubResponse {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return StubResponse(
                headers: ["Cache-Control": "max-age=\(maxAge)", "Date": formatter.string(from: date), "Content-Type": "application/json"],
                body: Data(#"{"page":1,"results":[]}"#.utf8))
        }

        @Test("Signed-in users: the snippet's sign-out drops the token's partition, so the next call goes to the server")
        func signOut() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", Self.popular(maxAge: 600))
            let storedToken: String? = "t1"
            @Sendable func refreshToken() async throws -> String { "t2" }

            let auth = RefreshingAuthenticator(token: storedToken) { _ in try await refreshToken() }
            let cache = HTTPCache()
            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [auth, cache]))
            _ = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            _ = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(stubs.requests(.get, "/3/movie/popular").count == 1)
            // … at sign-out:
            if let token = auth.credential { cache.removeResponses(authorization: "Bearer \(token)") }

            _ = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(stubs.requests(.get, "/3/movie/popular").count == 2)
        }

        @Test("Overview: a cache first in the interceptors answers the second call from memory")
        func overview() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", Self.popular(maxAge: 60))

            let cache = HTTPCache()
            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [cache, RetryPolicy()]))
            let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)

            #expect(page.page == 1)
            #expect(try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self).page == 1)
            #expect(stubs.requests.count == 1)
        }

        @Test("Defaults: a cache on disk answers a second client from what the first stored")
        func onDisk() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", Self.popular(maxAge: 60))
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MovieCache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            for _ in 0..<2 {
                let persistent = HTTPCache(storage: try .disk(directory: directory))
                let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [persistent]))
                #expect(try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self).page == 1)
            }
            #expect(stubs.requests.count == 1)
        }

        @Test("Tell where a response came from: the outcome of a hit")
        func outcome() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", Self.popular(maxAge: 60))
            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [HTTPCache()]))
            let lines = LockedArray<String>()
            func print(_ line: String) { lines.append(line) }

            for _ in 0..<2 {
                let response = try await client.response(for: MovieAPI.popular(page: 1), as: MoviePage.self)
                switch HTTPCache.outcome(of: response.response) {
                case .hit: print("from the cache, \(response.headers["Age"] ?? "0") s old")
                case .revalidated: print("the server confirmed the stored copy with a 304")
                case .stale: print("stale, served as max-stale or stale-if-error allowed")
                case nil: print("from the network")
                }
            }
            #expect(lines.elements.first == "from the network")
            #expect(lines.elements.last?.hasPrefix("from the cache, ") == true)
            #expect(lines.count == 2)
        }

        @Test("Ask for something else per request: max-stale accepts a response an hour stale")
        func offlineFirst() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", Self.popular(maxAge: 60, date: Date().addingTimeInterval(-3600)))
            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [HTTPCache()]))

            _ = try await client.send(OfflineFirst(), as: MoviePage.self)
            let response = try await client.response(for: OfflineFirst(), as: MoviePage.self)
            #expect(HTTPCache.outcome(of: response.response) == .stale)
            #expect(stubs.requests.count == 1)
        }

        @Test("Stay up: the client's own transport revalidates stale-while-revalidate responses in the background, unwired")
        func revalidationTransport() async throws {
            // The snippet, as written: it compiles.
            let client = NetworkClient { $0.interceptors = [HTTPCache()] }
            #expect(client.configuration.interceptors.count == 1)

            // The same over stubs: a response stale within its window is answered, then refreshed behind it.
            let stubs = StubTransport()
            var headers = Self.popular(maxAge: 60, date: Date().addingTimeInterval(-120)).headers
            headers["Cache-Control"] = "max-age=60, stale-while-revalidate=3600"
            stubs.register(.get, "/3/movie/popular", StubResponse(headers: headers, body: Data(#"{"page":1,"results":[]}"#.utf8)))
            let stubbed = NetworkClient(
                transport: stubs, configuration: ClientConfiguration(interceptors: [HTTPCache()]))
            _ = try await stubbed.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            let response = try await stubbed.response(for: MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(HTTPCache.outcome(of: response.response) == .stale)
            let deadline = ContinuousClock.now + .seconds(5)
            while stubs.requests.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(stubs.requests.count == 2)
        }
    }
}
