import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// GettingStarted.md: "Give each call its response type"; file-private, since the README's test declares one too.
extension Request where Value == Article.MoviePage {
    fileprivate static func popular(page: Int) -> Self { Request(Article.MovieAPI.popular(page: page)) }
}

extension ArticleTests {
    /// The snippets of the article GettingStarted.md, compiled and run against stubs.
    @Suite("Article: Getting started")
    struct GettingStartedArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage
        typealias MovieClient = Article.MovieClient

        /// `URLSessionTransport()` once for the whole run: short-lived sessions are costly.
        static let tuned = URLSessionTransport()

        @Test("Add the package: the products the manifest lines name exist")
        func manifestProducts() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
            #expect(manifest.contains(#".library(name: "NetworkLayer", targets: ["NetworkLayer"])"#))
            #expect(manifest.contains(#".library(name: "NetworkLayerTesting", targets: ["NetworkLayerTesting"])"#))
        }

        @Test("Describe the API: the two calls build the requests they describe")
        func describeTheAPI() throws {
            let popular = try MovieAPI.popular(page: 1).urlRequest()
            #expect(popular.httpMethod == "GET")
            #expect(popular.url?.absoluteString == "https://api.themoviedb.org/3/movie/popular?include_adult=false&page=1")
            let rate = try MovieAPI.rate(id: 550, value: 8.5).urlRequest()
            #expect(rate.httpMethod == "POST")
            #expect(rate.url?.absoluteString == "https://api.themoviedb.org/3/movie/550/rating")
            #expect(rate.httpBody == Data(#"{"value":8.5}"#.utf8))
        }

        @Test("Send a request: a page of titles, or the server's 401 as an APIError")
        func sendARequest() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}]}"#))
            stubs.register(.get, "/3/movie/popular", .json(#"{"status_message":"Invalid API key"}"#, statusCode: 401))
            let client = Article.client(stubs)

            var printed: [String] = []
            for _ in 1...2 {
                let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)  // Result<MoviePage, APIError>
                switch result {
                case .success(let page): printed.append("\(page.results.map(\.title))")
                case .failure(let error): printed.append("\(error)")
                }
            }
            #expect(printed == [#"["Fight Club"]"#, #"The server answered 401 Unauthorized: {"status_message":"Invalid API key"}"#])
        }

        @Test("Give each call its response type: send infers it from the typed request")
        func typedRequest() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}]}"#))
            let client = Article.client(stubs)

            let page = try await client.send(.popular(page: 1))  // a MoviePage; throws APIError

            #expect(page.results.map(\.title) == ["Fight Club"])
            #expect(stubs.requests.first?.url.absoluteString == "https://api.themoviedb.org/3/movie/popular?include_adult=false&page=1")
        }

        @Test("A client of your own needs a transport and a configuration; URLSessionTransport() is tuned for APIs")
        func clientOfYourOwn() async throws {
            let stubs = StubSession()
            stubs.register(.post, "/3/movie/550/rating", .json(#"{"status_code":1}"#, statusCode: 201))

            let movies = MovieClient(transport: URLSessionTransport(session: stubs.session))
            _ = try await movies.send(MovieAPI.rate(id: 550, value: 8.5), as: Empty.self)

            #expect(stubs.requests(.post, "/3/movie/550/rating").first?.bodyText == #"{"value":8.5}"#)
            let tuned = Self.tuned.session.configuration
            #expect(tuned.urlCache == nil)
            #expect(tuned.httpMaximumConnectionsPerHost == 64)
        }

        @Test("Point the client at an environment: one endpoint, two clients, two base URLs")
        func environments() async throws {
            typealias NotesAPI = Article.NotesAPI
            typealias Note = Article.Note
            let stubs = StubTransport()
            stubs.register(.get, "/api/notes", .json(#"[{"id":1}]"#))

            let staging = NetworkClient(
                transport: stubs, configuration: ClientConfiguration(baseURL: URL(string: "https://staging.example.com/api")))
            let local = NetworkClient(
                transport: stubs, configuration: ClientConfiguration(baseURL: URL(string: "http://127.0.0.1:8080/api")))
            let notes = try await staging.send(NotesAPI.list, as: [Note].self)  // GET https://staging.example.com/api/notes
            _ = try await local.send(NotesAPI.list, as: [Note].self)

            #expect(notes.map(\.id) == [1])
            #expect(
                stubs.requests.map(\.url.absoluteString) == ["https://staging.example.com/api/notes", "http://127.0.0.1:8080/api/notes"])
            let unset = await #expect(throws: APIError.self) {
                try await NetworkClient(transport: stubs).send(NotesAPI.list, as: [Note].self)
            }
            #expect(unset?.description.contains("ClientConfiguration.baseURL") == true)
        }
    }
}
