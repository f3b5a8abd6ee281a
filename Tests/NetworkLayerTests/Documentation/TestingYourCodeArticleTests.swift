import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article TestingYourCode.md and of NetworkLayerTesting's landing page
    /// (NetworkLayerTesting.md), run as the tests they show.
    @Suite("Article: Testing your code")
    struct TestingYourCodeArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage
        typealias MovieClient = Article.MovieClient

        @Test func ratingPostsTheValue() throws {
            let request = try MovieAPI.rate(id: 550, value: 8.5).urlRequest()
            #expect(request.httpMethod == "POST")
            #expect(request.url?.absoluteString == "https://api.themoviedb.org/3/movie/550/rating")
            #expect(request.httpBody == Data(#"{"value":8.5}"#.utf8))
        }

        @Test func popularMoviesAskForThePage() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page": 2, "results": []}"#))
            let client = MovieClient(transport: stubs)

            let page = try await client.send(MovieAPI.popular(page: 2), as: MoviePage.self)

            #expect(page.page == 2)
            #expect(stubs.requests.first?.query == "include_adult=false&page=2")
        }

        @Test("Test retries: 503, then 200")
        func retries() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", .status(503))
            stubs.register(.get, "/3/movie/popular", .json(#"{"page": 1, "results": []}"#))
            let client = NetworkClient(
                transport: stubs,
                configuration: ClientConfiguration(
                    interceptors: [RetryPolicy(random: { 0 })], callbackQueue: DispatchQueue(label: "articles")))

            let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            #expect(stubs.requests.count == 2)
            #expect(page.page == 1)
        }

        @Test("NetworkLayerTesting's landing page: a NetworkClient over a StubTransport")
        func landingPage() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page": 2, "results": []}"#))
            let client = NetworkClient(
                transport: stubs, configuration: ClientConfiguration(callbackQueue: DispatchQueue(label: "articles")))

            let page = try await client.send(MovieAPI.popular(page: 2), as: MoviePage.self)

            #expect(page.page == 2)
            #expect(stubs.requests.first?.query == "include_adult=false&page=2")
        }

        @Test("StubTransport or StubSession: a StubSession goes into a client wrapped in URLSessionTransport")
        func stubSessionInATransport() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page": 3, "results": []}"#))
            let client = MovieClient(transport: URLSessionTransport(session: stubs.session))

            let page = try await client.send(MovieAPI.popular(page: 3), as: MoviePage.self)

            #expect(page.page == 3)
            #expect(stubs.requests.first?.query == "include_adult=false&page=3")
        }
    }
}
