import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article HandlingErrors.md, compiled and run against stubs.
    @Suite("Article: Handling errors")
    struct HandlingErrorsArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage

        @Test("Typed throws: a 401 lands in its own catch clause")
        func typedThrows() async {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"status_message":"Invalid API key"}"#, statusCode: 401))
            let client = Article.client(stubs)
            var signInAgain = false

            do throws(APIError) {
                let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
                Issue.record("expected a failure, got \(page)")
            } catch .unacceptableStatusCode(401, _) {
                signInAgain = true
            } catch .cancelled {
                Issue.record("not cancelled")
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(signInAgain)
        }

        struct ServerError: Error, Decodable { let code: String; let message: String }

        @Test("Your app's own errors: a 422 body caught as ServerError, and found by underlying(as:)")
        func appErrors() async {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"code":"title_missing","message":"A note needs a title"}"#, statusCode: 422))
            var printed: (Int, String)?

            let client = NetworkClient(transport: Article.client(stubs).transport) {
                $0.validate = { response in
                    if response.statusCode >= 400, let error = try? response.decode(ServerError.self) { throw error }
                }
                $0.callbackQueue = DispatchQueue(label: "articles")
            }

            do throws(APIError) {
                let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
                Issue.record("expected a failure, got \(page)")
            } catch .validationFailed(let error as ServerError, let response) {
                printed = (response.statusCode, error.message)
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(printed?.0 == 422)
            #expect(printed?.1 == "A note needs a title")

            var code: String?
            let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
            if case .failure(let error) = result {
                if let serverError = error.underlying(as: ServerError.self) {
                    code = serverError.code
                } else if let decoding = error.underlying(as: DecodingError.self) {
                    Issue.record("unexpected \(decoding)")
                }
            }
            #expect(code == "title_missing")
        }

        /// What the article's mixed `do` block saves a page with.
        struct PageCache {
            func save(_ page: MoviePage) throws(CacheError) {}
        }
        struct CacheError: Error {}

        @Test("Typed errors among others: a `do` block that throws any Error matches APIError's cases by type")
        func mixedErrors() async {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"code":"title_missing","message":"A note needs a title"}"#, statusCode: 422))
            stubs.register(.get, "/3/movie/popular", .json(#"{"status_message":"gone"}"#, statusCode: 404))
            let client = NetworkClient(transport: Article.client(stubs).transport) {
                $0.validate = { response in
                    if response.statusCode == 422, let error = try? response.decode(ServerError.self) { throw error }
                }
                $0.callbackQueue = DispatchQueue(label: "articles")
            }
            let cache = PageCache()
            var printed: [String] = []
            for _ in 0..<2 {
                do {
                    let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
                    try cache.save(page)
                    Issue.record("expected a failure, got \(page)")
                } catch APIError.validationFailed(let error as ServerError, _) {
                    printed.append(error.message)
                } catch let error as APIError where error.statusCode == 404 {
                    printed.append("gone")
                } catch let error as CacheError {
                    Issue.record("unexpected \(error)")
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            #expect(printed == ["A note needs a title", "gone"])
        }

        @Test("statusCode and response of a status failure")
        func statusAndResponse() async {
            let stubs = StubSession()
            let body = #"{"status_message":"The resource could not be found."}"#
            stubs.register(.get, "/3/movie/popular", .json(body, statusCode: 404))
            let client = Article.client(stubs)
            var printed: (Int, String)?

            let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
            if case .failure(let error) = result, let status = error.statusCode {
                printed = (status, error.response?.text ?? "")
            }

            #expect(printed?.0 == 404)
            #expect(printed?.1 == body)
        }

        @Test("Two timeouts: a call that outlives its total deadline lands in the deadline's catch clause")
        func twoTimeouts() async {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#, delay: 5))
            // The article's 30 s, shortened for the test.
            let client = NetworkClient(
                transport: URLSessionTransport(session: stubs.session),
                configuration: ClientConfiguration(
                    interceptors: [RetryPolicy()], deadline: 0.3, callbackQueue: DispatchQueue(label: "articles")))
            var gaveUpAfter: TimeInterval?

            do throws(APIError) {
                let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
                Issue.record("expected a failure, got \(page)")
            } catch .timedOut {
                Issue.record("the idle timeout is 60 s")
            } catch .deadlineExceeded(let seconds) {
                gaveUpAfter = seconds
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(gaveUpAfter == 0.3)
        }

        enum CatalogueAPI: Endpoint {
            case export
            var base: String { "https://api.example.com" }
            var path: String { "/catalogue/export" }
            // The one call whose answer is larger than the rest: up to 256 MiB in memory.
            var options: CallOptions { CallOptions(responseLimits: ResponseLimits(inMemory: 256 * 1024 * 1024)) }
        }

        @Test("Bodies larger than the limits: the client's limit stops a 9 MiB page; the endpoint's lets its export through")
        func responseLimits() async throws {
            let stubs = StubSession()
            let large = Data(repeating: UInt8(ascii: " "), count: 9 * 1024 * 1024)
            stubs.register(.get, "/3/movie/popular", StubResponse(body: large))
            stubs.register(.get, "/catalogue/export", StubResponse(body: large))
            let client = NetworkClient(
                transport: URLSessionTransport(session: stubs.session),
                configuration: ClientConfiguration(
                    responseLimits: ResponseLimits(inMemory: 8 * 1024 * 1024), callbackQueue: DispatchQueue(label: "articles")))
            var printed: String?

            do throws(APIError) {
                let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
                Issue.record("expected a failure, got \(page)")
            } catch .responseTooLarge(let kind, let limit, let received, _) {
                printed = "stopped at \(received) bytes, past the \(kind) limit of \(limit)"
            } catch {
                Issue.record("unexpected \(error)")
            }

            #expect(printed == "stopped at \(9 * 1024 * 1024) bytes, past the inMemory limit of \(8 * 1024 * 1024)")
            #expect(try await client.send(CatalogueAPI.export, as: Data.self).count == large.count)
        }

        @Test("The article's table of failures has a row for every case of APIError, in the public API listing")
        func everyCaseInTheTable() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let listing = try String(contentsOf: root.appendingPathComponent("API/NetworkLayer.txt"), encoding: .utf8)
            let article = try String(
                contentsOf: root.appendingPathComponent("Sources/NetworkLayer/NetworkLayer.docc/HandlingErrors.md"), encoding: .utf8)
            // `case APIError.name(labels:): …` or `case APIError.name: …`, one a line.
            let cases = listing.split(separator: "\n").compactMap { line -> Substring? in
                guard line.hasPrefix("case APIError."), let end = line.range(of: ": ") else { return nil }
                return line[line.index(line.startIndex, offsetBy: "case APIError.".count)..<end.lowerBound]
            }
            let rows = Set(
                article.split(separator: "\n").compactMap { line -> Substring? in
                    guard line.hasPrefix("| ``APIError/") else { return nil }
                    return line.dropFirst("| ``APIError/".count).prefix { $0 != "`" }
                })
            #expect(cases.count >= 22, "the listing's cases: \(cases)")
            #expect(cases.filter { !rows.contains($0) } == [], "cases without a row in HandlingErrors.md")
        }
    }
}
