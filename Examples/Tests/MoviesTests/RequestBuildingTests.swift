import Foundation
import MoviesKit
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Building requests, without sending them")
struct RequestBuildingTests {
    private let encoder = JSONEncoder()

    @Test(
        "Each call has its path, method and query, with the key first",
        arguments: [
            (MovieAPI.popular(page: 2), "GET", "/3/movie/popular", "api_key=KEY&page=2"),
            (.nowPlaying(page: 1), "GET", "/3/movie/now_playing", "api_key=KEY&page=1"),
            (.topRated(page: 4), "GET", "/3/movie/top_rated", "api_key=KEY&page=4"),
            (.details(id: 550), "GET", "/3/movie/550", "api_key=KEY"),
            (.recommendations(id: 550), "GET", "/3/movie/550/recommendations", "api_key=KEY"),
            (.videos(id: 550), "GET", "/3/movie/550/videos", "api_key=KEY"),
            (
                .search(query: "heat & dust", page: 1), "GET", "/3/search/movie",
                "api_key=KEY&include_adult=false&page=1&query=heat%20%26%20dust"
            ),
            (.rate(id: 550, value: 8.5), "POST", "/3/movie/550/rating", "api_key=KEY"),
        ]
    )
    func request(call: MovieAPI, method: String, path: String, query: String) throws {
        let request = try call.urlRequest(baseURL: APIEnvironment.production.baseURL(apiKey: "KEY"), encoder: encoder)
        let url = try #require(request.url)

        #expect(request.httpMethod == method)
        #expect(url.host == "api.themoviedb.org")
        #expect(url.path == path)
        #expect(url.query == query)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test("rate sends {\"value\":8.5} as application/json")
    func rateBody() throws {
        let request = try MovieAPI.rate(id: 550, value: 8.5).urlRequest(
            baseURL: APIEnvironment.production.baseURL(apiKey: "KEY"), encoder: encoder)

        #expect(request.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"value":8.5}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
    }

    @Test("Environments pick the base URL; a key with reserved characters is escaped")
    func environments() throws {
        let details = MovieAPI.details(id: 1)
        let staging = try details.urlRequest(baseURL: APIEnvironment.staging.baseURL(apiKey: "a+b/c"), encoder: encoder)
        let local = APIEnvironment.custom("http://127.0.0.1:8080/3")
        let custom = try details.urlRequest(baseURL: local.baseURL(apiKey: "k"), encoder: encoder)

        #expect(staging.url?.absoluteString == "https://api.staging.themoviedb.example/3/movie/1?api_key=a%2Bb%2Fc")
        #expect(custom.url?.absoluteString == "http://127.0.0.1:8080/3/movie/1?api_key=k")
        #expect(APIEnvironment(name: "production") == .production)
        #expect(APIEnvironment(name: "dev") == nil)
    }

    @Test("A bare MovieAPI case goes to whichever base URL it is given, and needs one")
    func bareCase() throws {
        let production = URL(string: APIEnvironment.production.baseURL)
        let request = try MovieAPI.popular(page: 1).urlRequest(baseURL: production, encoder: encoder)

        #expect(request.url?.absoluteString == "https://api.themoviedb.org/3/movie/popular?page=1")
        #expect(throws: APIError.invalidURL("")) { try MovieAPI.popular(page: 1).urlRequest(encoder: encoder) }
    }

    @Test("A base URL with a query of its own keeps it before the key")
    func customQuery() throws {
        let custom = APIEnvironment.custom("http://127.0.0.1:8080/3?language=de")
        let request = try MovieAPI.popular(page: 2).urlRequest(baseURL: custom.baseURL(apiKey: "k"), encoder: encoder)

        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/3/movie/popular?language=de&api_key=k&page=2")
    }
}
