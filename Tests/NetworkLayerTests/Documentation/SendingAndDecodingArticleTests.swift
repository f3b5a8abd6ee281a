import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article SendingAndDecoding.md, compiled and run against stubs.
    @Suite("Article: Sending and decoding")
    struct SendingAndDecodingArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage
        typealias Movie = Article.Movie

        @Test("Every way of sending")
        func everyWayOfSending() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
            stubs.register(.get, "/3/movie/550", .json(#"{"id":550,"title":"Fight Club"}"#))
            let client = Article.client(stubs)
            let handBuiltURLRequest = URLRequest(url: try #require(URL(string: "https://api.themoviedb.org/3/movie/550")))

            let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
            let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
            let movie = try await client.send(with: handBuiltURLRequest, as: Movie.self)  // your own URLRequest
            let response = try await client.response(for: MovieAPI.popular(page: 1))
            let decoded = try client.decode(MoviePage.self, from: response)  // later, as send would have
            let followed = try await client.response(with: handBuiltURLRequest, as: Movie.self)  // Response<Movie>

            #expect(try result.get().page == 1)
            #expect(page.page == 1)
            #expect(movie.title == "Fight Club")
            #expect(response.statusCode == 200)
            #expect(response.text == #"{"page":1,"results":[]}"#)
            #expect(decoded.page == 1)
            #expect(followed.value.title == "Fight Club")
            #expect(followed.statusCode == 200)
        }

        @Test("The value with its status and headers")
        func valueWithHeaders() async throws {
            let stubs = StubSession()
            let link = #"</3/movie/popular?page=2>; rel="next""#
            stubs.register(.get, "/3/movie/popular", StubResponse(headers: ["Link": link], body: Data(#"{"page":1,"results":[]}"#.utf8)))
            let client = Article.client(stubs)

            let page = try await client.response(for: MovieAPI.popular(page: 1), as: MoviePage.self)
            print(page.value.results.count, page.statusCode, page.headers["Link"] ?? "no next page")

            #expect(page.value.page == 1)
            #expect(page.statusCode == 200)
            #expect(page.headers["Link"] == link)
        }

        @Test("Pagination: by the Link header, and by page number")
        func pagination() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular") { request in
                let page = Int(request.url.query?.split(separator: "&").first { $0.hasPrefix("page=") }?.dropFirst(5) ?? "1") ?? 1
                let link = page < 3 ? #"</3/movie/popular?page=\#(page + 1)>; rel="next""# : ""
                let results = page < 3 ? #"[{"id":\#(page),"title":"M"}]"# : "[]"
                return StubResponse(headers: ["Link": link], body: Data(#"{"page":\#(page),"results":\#(results)}"#.utf8))
            }
            let client = Article.client(stubs)

            let first = Request<MoviePage>(MovieAPI.popular(page: 1))
            for try await page in client.pages(startingWith: first) { print(page.results.count) }  // by Link: rel="next"

            let byNumber = client.pages(startingWith: first, maximumPages: 10) { page in
                page.value.results.isEmpty ? nil : Request(MovieAPI.popular(page: page.value.page + 1))
            }

            #expect(stubs.requests.count == 3, "the link was followed to page 3, which has none")
            var numbers: [Int] = []
            for try await page in byNumber { numbers.append(page.page) }
            #expect(numbers == [1, 2, 3])
        }

        @Test("A completion handler runs once; cancelling the handle completes with .cancelled")
        func completionHandler() async {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#, delay: 60))
            let client = Article.client(stubs)
            let completed = LockedArray<Result<MoviePage, APIError>>()

            let handle = client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self) { result in
                completed.append(result)
            }
            handle.cancel()

            #expect(await eventually { completed.count == 1 })
            #expect(completed.elements.first?.failure == .cancelled)
            #expect(handle.isCancelled)
        }

        @Test("Empty ignores the body; String is its UTF-8 text")
        func decodingTargets() async throws {
            let stubs = StubSession()
            stubs.register(.post, "/3/movie/550/rating", .json(#"{"status_code":1}"#, statusCode: 201))
            stubs.register(.get, "/3/movie/popular", .text("page one"))
            let client = Article.client(stubs)

            _ = try await client.send(MovieAPI.rate(id: 550, value: 8.5), as: Empty.self)
            let text = try await client.send(MovieAPI.popular(page: 1), as: String.self)

            #expect(text == "page one")
            #expect(stubs.requests.map(\.method) == [.post, .get])
        }
    }
}
