import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's samples, compiled and run against stubs so they cannot rot.
enum Readme {
    struct Rating: Encodable { let value: Double }
    struct Movie: Decodable { let id: Int; let title: String }
    struct MoviePage: Decodable { let page: Int; let results: [Movie] }

    enum MovieAPI: Endpoint {
        case popular(page: Int)
        case rate(id: Int, value: Double)

        var base: String { "https://api.themoviedb.org/3" }
        var path: String {
            switch self {
            case .popular: "/movie/popular"
            case .rate(let id, _): "/movie/\(id)/rating"
            }
        }
        var method: HTTPMethod { if case .rate = self { .post } else { .get } }
        var task: HTTPTask {
            switch self {
            case .popular(let page): .requestParameters(urlParameters: ["page": page, "include_adult": false])
            case .rate(_, let value): .requestJSONBody(Rating(value: value))
            }
        }
    }

    struct MovieClient: APIClient { let session: URLSession }
}

/// A slow route, so that cancelling its handle always wins the race.
private struct TopRated: Endpoint {
    var base: String { "https://api.themoviedb.org/3" }
    var path: String { "/movie/top_rated" }
}

@Suite("README samples")
struct ReadmeTests {
    typealias MovieAPI = Readme.MovieAPI
    typealias MoviePage = Readme.MoviePage

    @Test("Quick start: fetch a page and rate a movie")
    func quickStart() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}]}"#))
        stubs.register(.post, "/3/movie/550/rating", .json(#"{"status_code":1}"#, statusCode: 201))
        let client = Readme.MovieClient(session: stubs.session)

        let page: Result<MoviePage, APIError> = await client.fetch(MovieAPI.popular(page: 1))
        #expect(try page.get().results.map(\.title) == ["Fight Club"])
        _ = try await client.send(MovieAPI.rate(id: 550, value: 8.5), as: Empty.self)
        #expect(
            stubs.requests.map(\.url.absoluteString) == [
                "https://api.themoviedb.org/3/movie/popular?include_adult=false&page=1",
                "https://api.themoviedb.org/3/movie/550/rating",
            ])
        #expect(stubs.requests.last?.bodyText == #"{"value":8.5}"#)
    }

    @Test("Every sending style")
    func sendingStyles() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
        stubs.register(.get, "/3/movie/550", .json(#"{"id":550,"title":"Fight Club"}"#))
        stubs.register(.get, "/3/movie/top_rated", .json("{}", delay: 60))
        let client = NetworkClient(session: stubs.session, callbackQueue: DispatchQueue(label: "readme"))
        let handBuiltURLRequest = URLRequest(url: try #require(URL(string: "https://api.themoviedb.org/3/movie/550")))

        let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
        let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
        let completed = LockedArray<Result<Empty, APIError>>()
        let handle = client.fetch(TopRated(), as: Empty.self) { result in completed.append(result) }
        handle.cancel()
        let movie = await client.fetch(with: handBuiltURLRequest, as: Readme.Movie.self)
        let response = try await client.response(for: MovieAPI.popular(page: 1))

        #expect(try result.get().page == 1)
        #expect(page.page == 1)
        #expect(await eventually { completed.count == 1 })
        #expect(completed.elements.first?.failure == .cancelled)
        #expect(try movie.get().id == 550)
        #expect(response.statusCode == 200)
    }

    @Test("Error handling with typed throws")
    func errorHandling() async {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"status_message":"Invalid API key"}"#, statusCode: 401))
        let client = Readme.MovieClient(session: stubs.session)
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

    @Test("Testing your code with StubSession")
    func stubSessionSample() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page": 2, "results": []}"#))
        let client = Readme.MovieClient(session: stubs.session)

        let page = try await client.send(MovieAPI.popular(page: 2), as: MoviePage.self)

        #expect(page.page == 2)
        #expect(stubs.requests.first?.query == "include_adult=false&page=2")
    }
}
