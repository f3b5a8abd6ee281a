import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if AsyncHTTPClient
    import AsyncHTTPClient
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article ChoosingATransport.md, run as written.
    @Suite("Article: Choosing a transport")
    struct ChoosingATransportArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage

        struct Canned: HTTPTransport {
            func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
                let head = HTTPResponse(statusCode: 200, url: request.urlRequest.url)
                return TransportResponse(head: head, body: ResponseBody(Data(#"{"page":1,"results":[]}"#.utf8)))
            }
        }

        @Test("The manifest that makes AsyncHTTPClient optional is the consumer package's, which the test command builds both ways")
        func optionalTraitManifest() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let article = try String(
                contentsOf: root.appendingPathComponent("Sources/NetworkLayer/NetworkLayer.docc/ChoosingATransport.md"), encoding: .utf8)
            let manifest = try String(contentsOf: root.appendingPathComponent("Tests/Consumer/Package.swift"), encoding: .utf8)
            let consumer = try String(
                contentsOf: root.appendingPathComponent("Tests/Consumer/Sources/consumer/main.swift"), encoding: .utf8)
            // The snippet after "// Package.swift of your package", up to the end of its block.
            let start = try #require(article.range(of: "// Package.swift of your package\n"))
            let end = try #require(article.range(of: "```", range: start.upperBound..<article.endIndex))
            let lines = article[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
                // Without the comment that names the other spelling of the dependency.
                (line.range(of: "   //").map { line[..<$0.lowerBound] } ?? line).trimmingCharacters(in: .whitespaces)
            }
            #expect(lines.count >= 8)
            let missing = lines.filter { !$0.isEmpty && !manifest.contains($0) }
            #expect(missing == [], "lines of the article's manifest that Tests/Consumer/Package.swift does not have")
            #expect(consumer.contains("#if AHC") && consumer.contains(".asyncHTTPClient()"))
        }

        @Test("A redirect policy of your own follows only to the CDN, without the API key")
        func redirectPolicy() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/start", StubResponse(statusCode: 302, headers: ["Location": "https://cdn.example.com/file"]))
            stubs.register(.get, "/elsewhere", StubResponse(statusCode: 302, headers: ["Location": "https://other.example.com/file"]))
            stubs.register(.get, "/file", .text("file"))
            let client = NetworkClient(
                transport: stubs,
                configuration: ClientConfiguration(
                    acceptableStatusCodes: [200, 302],
                    redirectPolicy: RedirectPolicy(sensitiveHeaders: ["X-API-Key"]) { response, next in
                        next.url?.host == "cdn.example.com" ? next : nil  // follow only to the CDN
                    }))
            var request = URLRequest(url: try #require(URL(string: "https://api.example.com/start")))
            request.setValue("SECRET", forHTTPHeaderField: "X-API-Key")
            #expect(try await client.response(with: request).text == "file")
            #expect(stubs.requests.last?.url.host == "cdn.example.com")
            #expect(stubs.requests.last?.headers["X-API-Key"] == nil)
            request.url = URL(string: "https://api.example.com/elsewhere")
            #expect(try await client.response(with: request).statusCode == 302)
        }

        @Test("A transport of your own serves the client")
        func cannedTransport() async throws {
            let client = NetworkClient(transport: Canned())
            let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(page.page == 1)
            #expect(page.results.isEmpty)
        }

        struct ETagCache: Interceptor {
            private actor Store {
                var entries: [URL: (etag: String, response: HTTPResponse)] = [:]
                func entry(for url: URL) -> (etag: String, response: HTTPResponse)? { entries[url] }
                func store(_ response: HTTPResponse, etag: String, for url: URL) { entries[url] = (etag, response) }
            }

            private let store = Store()

            func intercept(
                _ request: URLRequest,
                context: RequestContext,
                next: (URLRequest) async throws(APIError) -> TransportResponse
            ) async throws(APIError) -> TransportResponse {
                guard request.httpMethod ?? "GET" == "GET", let url = request.url else { return try await next(request) }
                let cached = await store.entry(for: url)
                var request = request
                if let cached { request.setValue(cached.etag, forHTTPHeaderField: "If-None-Match") }
                let received = try await next(request)
                if received.head.statusCode == 304, let cached { return TransportResponse(cached.response) }
                guard received.head.statusCode == 200, let etag = received.head.headers["ETag"] else { return received }
                let response = try await received.collected()
                await store.store(response, etag: etag, for: url)
                return TransportResponse(response)
            }
        }

        @Test("The ETag cache answers a 304 from memory, after sending If-None-Match")
        func etagCache() async throws {
            let stubs = StubTransport()
            let body = Data(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}]}"#.utf8)
            stubs.register(.get, "/3/movie/popular", StubResponse(headers: ["ETag": "\"v1\""], body: body))
            stubs.register(.get, "/3/movie/popular", .status(304))
            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [ETagCache()]))

            for _ in 1...2 {
                let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
                #expect(page.results.map(\.title) == ["Fight Club"])
            }
            #expect(stubs.requests.map { $0.headers["If-None-Match"] } == [nil, "\"v1\""])
        }

        #if AsyncHTTPClient
            /// A server that answers every request with an empty first page.
            static func pageServer() throws -> ScriptedServer {
                try ScriptedServer { connection in
                    let body = Data(#"{"page":1,"results":[]}"#.utf8)
                    connection.writeHead(headers: ["Content-Type": "application/json", "Content-Length": "\(body.count)"])
                    connection.write(body)
                }
            }

            @Test(
                "One line switches a client over to AsyncHTTPClient; a configuration of your own, or a client that stays yours to shut down",
                arguments: TransportKind.all.filter { !$0.isURLSession })
            func asyncHTTPClient(transport: TransportKind) async throws {
                let server = try Self.pageServer()
                let endpoint = TestEndpoint(base: server.baseURL)

                let client = NetworkClient(transport: .asyncHTTPClient())
                #expect(try await client.send(endpoint, as: MoviePage.self).page == 1)

                var configuration = AsyncHTTPClientTransport.defaultConfiguration()
                configuration.timeout.connect = .seconds(5)
                let configured = NetworkClient(transport: .asyncHTTPClient(configuration: configuration)) { $0.timeout = 30 }
                #expect(try await configured.send(endpoint, as: MoviePage.self).page == 1)
                #expect(configured.configuration.timeout == 30)

                let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                let shared = NetworkClient(transport: .asyncHTTPClient(httpClient))
                #expect(try await shared.send(endpoint, as: MoviePage.self).page == 1)
                try await httpClient.shutdown()
            }
        #endif
    }
}
