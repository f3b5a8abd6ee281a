import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article DescribingEndpoints.md, compiled and run.
    @Suite("Article: Describing endpoints")
    struct DescribingEndpointsArticleTests {
        struct Search: Endpoint {
            let query: String
            var base: String { "https://api.example.com/3?lang=en" }
            var path: String { "/search/movie" }
            var task: HTTPTask { .requestParameters(urlParameters: ["query": query, "page": 1]) }
        }

        struct Lookup: Endpoint {
            var base: String { "https://api.example.com" }
            var path: String { "/lookup" }
            var task: HTTPTask { .requestParameters(urlParameters: ["ids": [1, 2], "hd": true]) }
            var urlParameterEncoder: URLParameterEncoder { URLParameterEncoder(arrayEncoding: .noBrackets, boolEncoding: .numeric) }
        }

        @Test("Build a request without sending it")
        func buildARequest() throws {
            let request = try Search(query: "Heat 1995").urlRequest()
            #expect(request.url?.absoluteString == "https://api.example.com/3/search/movie?lang=en&page=1&query=Heat%201995")
        }

        struct Profile: Endpoint {
            var base: String { "/v2/" }
            var path: String { "/me" }
            var task: HTTPTask { .requestParameters(urlParameters: ["fields": "name"]) }
        }

        @Test("Resolve a relative base against the client's base URL")
        func resolveRelativeBase() throws {
            let baseURL = URL(string: "https://api.example.com/root/?key=abc")
            let profile = try Profile().urlRequest(baseURL: baseURL)
            #expect(profile.url?.absoluteString == "https://api.example.com/root/v2/me?key=abc&fields=name")
            #expect(throws: APIError.invalidURL("/v2/")) { try Profile().urlRequest() }
        }

        @Test("A typed request from its parts builds the request it describes")
        func typedRequestFromParts() throws {
            typealias Movie = Article.Movie
            typealias Rating = Article.Rating

            let movie = Request<Movie>(base: "https://api.themoviedb.org/3", path: "/movie/550")
            let rating = Request<Empty>(
                base: "https://api.themoviedb.org/3", path: "/movie/550/rating", method: .post,
                task: .requestJSONBody(Rating(value: 8.5)))

            #expect(try movie.urlRequest().url?.absoluteString == "https://api.themoviedb.org/3/movie/550")
            let rate = try rating.urlRequest()
            #expect(rate.httpMethod == "POST")
            #expect(rate.url?.absoluteString == "https://api.themoviedb.org/3/movie/550/rating")
            #expect(rate.httpBody == Data(#"{"value":8.5}"#.utf8))
        }

        @Test("Nested parameter literals encode into the query shown")
        func nestedParameters() throws {
            let parameters: Parameters = ["page": 2, "filter": ["year": 1995, "genres": ["crime", "drama"]], "adult": false]
            let query = try URLParameterEncoder().query(for: parameters)
            #expect(
                query == "adult=false&filter%5Bgenres%5D%5B%5D=crime&filter%5Bgenres%5D%5B%5D=drama&filter%5Byear%5D=1995&page=2")
        }

        @Test("A run-time dictionary converts, and a value no encoder writes fails naming its key path")
        func runTimeParameters() throws {
            let body = Data(#"{"page":2,"adult":false,"filter":{"year":1995,"genres":["crime"]},"cursor":null}"#.utf8)

            let decoded = try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
            let parameters = Parameters(decoded)  // numbers, booleans, null and nesting kept
            let since = Parameters(["filter": ["since": Date()]])
            #expect {
                _ = try URLParameterEncoder().query(for: since)
            } throws: { error in
                (error as? APIError)?.encodingFailureReason?.hasPrefix(
                    "parameter 'filter.since': Date is not supported; use String, Bool, an integer, Double, Decimal") == true
            }

            #expect(
                try URLParameterEncoder().query(for: parameters)
                    == "adult=false&filter%5Bgenres%5D%5B%5D=crime&filter%5Byear%5D=1995&page=2")
        }

        @Test("An endpoint picks its array and bool style")
        func encoderOptions() throws {
            #expect(try Lookup().urlRequest().url?.absoluteString == "https://api.example.com/lookup?hd=1&ids=1&ids=2")
        }

        @Test("Headers: case-insensitive names, replaced in place, helpers")
        func headers() {
            var headers: HTTPHeaders = ["Accept": "application/json"]
            headers["accept"] = "application/vnd.api+json"
            headers["X-Request-ID"] = "42"
            headers.add(HTTPHeader(name: "Content-Type", value: "application/json"))
            #expect(
                Array(headers) == [
                    HTTPHeader(name: "Accept", value: "application/vnd.api+json"),
                    HTTPHeader(name: "X-Request-ID", value: "42"),
                    HTTPHeader(name: "Content-Type", value: "application/json"),
                ])
        }
    }
}
