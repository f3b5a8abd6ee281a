import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article LoggingAndEvents.md, compiled and run against stubs.
    @Suite("Article: Logging and events")
    struct LoggingAndEventsArticleTests {
        struct Items: Endpoint {
            var base: String { "https://api.example.com" }
            var path: String { "/items" }
            var task: HTTPTask { .requestParameters(urlParameters: ["api_key": "secret", "page": 1]) }
        }

        @Test("NetworkLogger writes one line per attempt, with secrets redacted")
        func logger() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/items", .json(#"{"items":[]}"#))
            let lines = LockedArray<String>()

            let logger = NetworkLogger(level: .info) { line in lines.append(line) }
            _ = try await Article.client(stubs, interceptors: [logger]).send(Items(), as: Empty.self)

            let line = try #require(lines.elements.first)
            #expect(lines.count == 1)
            #expect(line.hasPrefix("GET https://api.example.com/items?api_key=<redacted>&page=1 → 200 OK, "))
            #expect(line.hasSuffix(", sent 0 B, received 12 B"))
        }

        @Test("The labelled initialiser takes a closure passed by name")
        func labelledLogger() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/items", .json(#"{"items":[]}"#))
            let lines = LockedArray<String>()

            let log: @Sendable (String) -> Void = { line in lines.append(line) }
            let labelled = NetworkLogger(level: .info, sink: log)
            let quiet = NetworkLogger(level: .error, redaction: .default, bodyLimit: 0, sink: log)
            _ = try await Article.client(stubs, interceptors: [labelled, quiet]).send(Items(), as: Empty.self)

            #expect(lines.count == 1, "one line from .info, none from .error for a success")
        }

        @Test("cURLDescription prints the command shown, credentials redacted")
        func cURL() throws {
            var request = URLRequest(url: try #require(URL(string: "https://api.example.com/items?api_key=k")))
            request.httpMethod = "POST"
            request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"name":"Bob's"}"#.utf8)
            #expect(
                request.cURLDescription() == """
                    curl -X POST 'https://api.example.com/items?api_key=<redacted>' \\
                      -H 'Authorization: <redacted>' \\
                      -H 'Content-Type: application/json' \\
                      --data-binary '{"name":"Bob'\\''s"}'
                    """)
        }

        /// The article's `Metrics`, writing what it prints to `seen`.
        struct Metrics: Interceptor {
            let seen: LockedArray<String>
            func observe(_ event: NetworkEvent) {
                switch event {
                case .requestStarted(let id, let request): seen.append("started \(id > 0) \(request.url?.path ?? "")")
                case .exchangeFinished(let exchange):
                    seen.append("exchange \(exchange.response.statusCode) \(exchange.context.redirectedFrom) \(exchange.reachedTransport)")
                case .attemptFinished(let attempt):
                    seen.append(
                        "attempt \(attempt.attempt) \(attempt.response?.statusCode ?? 0) \(attempt.duration >= 0) \(attempt.bytesReceived)")
                case .requestFinished(let request):
                    seen.append("finished \(request.attempts) \(request.duration >= 0) \(request.error == nil)")
                }
            }
        }

        @Test("An interceptor that only observes sees every event")
        func metricsHook() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
            let seen = LockedArray<String>()

            let metrics = Metrics(seen: seen)
            _ = try await Article.client(stubs, interceptors: [metrics]).send(Article.MovieAPI.popular(page: 1), as: Empty.self)

            #expect(
                seen.elements == ["started true /3/movie/popular", "exchange 200 [] true", "attempt 1 200 true 23", "finished 1 true true"])
        }
    }
}
