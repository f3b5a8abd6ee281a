import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article InterceptorsAndRetries.md, compiled and run against stubs.
    @Suite("Article: Interceptors and retries")
    struct InterceptorsAndRetriesArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage

        struct UserAgent: Interceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.setValue("MovieApp/1.0", forHTTPHeaderField: "User-Agent")
                return request
            }
        }

        enum SearchAPI: Endpoint {
            case movies(query: String)
            var base: String { "https://api.themoviedb.org/3" }
            var path: String { "/search/movie" }
            var task: HTTPTask {
                switch self {
                case .movies(let query): .requestParameters(urlParameters: ["query": query])
                }
            }
            var options: CallOptions { CallOptions(deadline: 5) }
        }

        @Test("Timeouts, deadlines and retries: a client's deadline over its retries, and an endpoint's that shortens it")
        func deadlines() async throws {
            let client = NetworkClient {
                $0.interceptors = [RetryPolicy(maximumAttempts: 5)]; $0.deadline = 30
            }
            #expect(client.configuration.deadline == 30)

            #expect(SearchAPI.movies(query: "alien").options.deadline == 5)

            // The article's deadline runs over the stubs' time: a search answering at 20 s ends at 5 s.
            let stubs = StubSession()
            stubs.register(.get, "/3/search/movie", .json(#"{"page":1,"results":[]}"#, delay: 20))
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
            let shortened = Article.client(stubs, interceptors: [RetryPolicy()])
            await #expect(throws: APIError.deadlineExceeded(5)) {
                try await shortened.send(SearchAPI.movies(query: "alien"), as: MoviePage.self)
            }
            #expect(try await shortened.send(MovieAPI.popular(page: 1), as: MoviePage.self).page == 1)
        }

        @Test("A refreshing authenticator, a retry policy and a logger on one client")
        func interceptorList() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular") { request in
                request.headers["Authorization"] == "Bearer fresh-1" ? .json(#"{"page":1,"results":[]}"#) : .status(401)
            }
            let tokenService = Article.TokenService()
            let storedToken: String? = "expired"
            let lines = LockedArray<String>()

            let auth = RefreshingAuthenticator(token: storedToken) { _ in try await tokenService.refresh() }
            let client = Article.client(stubs, interceptors: [auth, RetryPolicy(), NetworkLogger { lines.append($0) }])

            let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(page.page == 1)
            #expect(tokenService.refreshes == 1)
            #expect(lines.count == 3, "two attempts and a summary")
        }

        @Test("Write an interceptor: UserAgent adapts every attempt")
        func userAgent() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .status(503))
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
            let client = Article.client(stubs, interceptors: [UserAgent(), RetryPolicy(random: { 0 })])

            _ = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)

            #expect(stubs.requests.map { $0.headers["User-Agent"] } == ["MovieApp/1.0", "MovieApp/1.0"])
        }

        @Test("RetryPolicy: three attempts by default; options replace the defaults")
        func retryPolicy() async throws {
            let client = NetworkClient(
                transport: URLSessionTransport(session: StubSession().session),
                configuration: ClientConfiguration(interceptors: [RetryPolicy()]))
            let patient = RetryPolicy(maximumAttempts: 5, baseDelay: 1, maximumDelay: 10, retryableStatusCodes: [503])

            let request = URLRequest(url: try #require(URL(string: "https://api.example.com")))
            let policy = try #require(client.configuration.interceptors.first as? RetryPolicy)
            let failed = APIError.requestFailed(URLError(.networkConnectionLost))
            // The default allows a third attempt after the second failed, not a fourth; the patient one a fifth.
            #expect(await policy.retry(request, for: failed, context: RequestContext(attempt: 2)) != .doNotRetry)
            #expect(await policy.retry(request, for: failed, context: RequestContext(attempt: 3)) == .doNotRetry)
            #expect(await patient.retry(request, for: failed, context: RequestContext(attempt: 4)) != .doNotRetry)
            #expect(await patient.retry(request, for: failed, context: RequestContext(attempt: 5)) == .doNotRetry)
            let unavailable = APIError.unacceptableStatusCode(503, HTTPResponse(statusCode: 503, headers: ["Retry-After": "120"]))
            #expect(
                await patient.retry(request, for: unavailable, context: RequestContext()) == .doNotRetry,
                "a Retry-After beyond maximumDelay is not cut short: no retry")
            let badGateway = APIError.unacceptableStatusCode(502, HTTPResponse(statusCode: 502))
            #expect(await patient.retry(request, for: badGateway, context: RequestContext()) == .doNotRetry)
        }
    }
}
