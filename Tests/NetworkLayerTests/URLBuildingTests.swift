import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Endpoint URL building")
struct URLBuildingTests {
    @Test(
        "base and path are joined with exactly one slash",
        arguments: [
            ("https://api.example.com", "/movie", "https://api.example.com/movie"),
            ("https://api.example.com", "movie", "https://api.example.com/movie"),
            ("https://api.example.com/", "/movie", "https://api.example.com/movie"),
            ("https://api.example.com/", "movie", "https://api.example.com/movie"),
            ("https://api.example.com/3", "/movie/popular", "https://api.example.com/3/movie/popular"),
            ("https://api.example.com/3/", "movie/popular", "https://api.example.com/3/movie/popular"),
            ("https://api.example.com/3//", "//movie", "https://api.example.com/3/movie"),
            ("https://api.example.com/3", "/movie/", "https://api.example.com/3/movie/"),
            ("https://api.example.com/3", "", "https://api.example.com/3"),
            ("https://api.example.com", "", "https://api.example.com"),
            ("http://127.0.0.1:8080/api", "v1/items", "http://127.0.0.1:8080/api/v1/items"),
        ])
    func joining(base: String, path: String, expected: String) throws {
        let request = try TestEndpoint(base: base, path: path).urlRequest()
        #expect(request.url?.absoluteString == expected)
    }

    @Test(
        "Characters a path cannot carry raw are percent-encoded",
        arguments: [
            ("/movie/a b", "/movie/a%20b"),
            ("/café/é", "/caf%C3%A9/%C3%A9"),
            ("/search/50%", "/search/50%25"),
            ("/what?/#frag", "/what%3F/%23frag"),
            ("/a\"b<c>", "/a%22b%3Cc%3E"),
            ("/keep/-._~!$&'()*+,;=:@", "/keep/-._~!$&'()*+,;=:@"),
            ("/emoji/🎬", "/emoji/%F0%9F%8E%AC"),
        ])
    func pathEncoding(path: String, expectedPath: String) throws {
        let request = try TestEndpoint(path: path).urlRequest()
        let components = try #require(request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) })
        #expect(components.percentEncodedPath == expectedPath)
        #expect(request.url?.query == nil)
    }

    @Test("A query in base is kept and URL parameters come after it")
    func baseQuery() throws {
        let endpoint = TestEndpoint(
            base: "https://api.example.com/3?api_key=k%20y",
            path: "/movie",
            task: .requestParameters(urlParameters: ["page": 2])
        )
        let request = try endpoint.urlRequest()
        #expect(request.url?.absoluteString == "https://api.example.com/3/movie?api_key=k%20y&page=2")
    }

    @Test("A base query alone survives when there are no URL parameters")
    func baseQueryAlone() throws {
        let request = try TestEndpoint(base: "https://h.test/v1?lang=en", path: "x").urlRequest()
        #expect(request.url?.absoluteString == "https://h.test/v1/x?lang=en")
    }

    @Test(
        "A base's user info, port, IPv6 host, lone `?` and fragment are kept where they belong",
        arguments: [
            ("https://user:pw@h.test/v1", [:], "https://user:pw@h.test/v1/x"),
            ("https://h.test:65535/v1", [:], "https://h.test:65535/v1/x"),
            ("http://[::1]:8080/api/", ["page": 2], "http://[::1]:8080/api/x?page=2"),
            ("https://h.test/v1?", [:], "https://h.test/v1/x?"),
            ("https://h.test/v1?", ["page": 2], "https://h.test/v1/x?page=2"),
            ("https://h.test/v1#top", ["page": 2], "https://h.test/v1/x?page=2#top"),
            ("https://h.test/v1?lang=en#top", ["page": 2], "https://h.test/v1/x?lang=en&page=2#top"),
        ] as [(String, Parameters, String)])
    func baseParts(base: String, parameters: Parameters, expected: String) throws {
        let task: HTTPTask = parameters.isEmpty ? .request : .requestParameters(urlParameters: parameters)
        let request = try TestEndpoint(base: base, path: "/x", task: task).urlRequest()
        #expect(request.url?.absoluteString == expected)
    }

    @Test("A port past 65535 is .invalidURL, however many digits", arguments: ["https://h.test:65536", "http://[::1]:123456/v1"])
    func portOutOfRange(base: String) {
        #expect(throws: APIError.invalidURL(base)) {
            try TestEndpoint(base: base, path: "/x").urlRequest()
        }
    }

    @Test(
        "A malformed base is .invalidURL, never a crash",
        arguments: [
            "", "not a url", "api.example.com/3", "/relative/path", "https://", "http:///x",
            "://host", "https://exa mple.com", "mailto:someone@example.com", "https://[::1", "https://h.test:99999/",
        ])
    func invalidBase(base: String) {
        #expect(throws: APIError.invalidURL(base)) {
            try TestEndpoint(base: base).urlRequest()
        }
    }

    @Test("The method is sent as given")
    func method() throws {
        let request = try TestEndpoint(method: HTTPMethod(rawValue: "PURGE")).urlRequest()
        #expect(request.httpMethod == "PURGE")
    }

    @Test("A method that is not a token is rejected", arguments: ["", "GET X", "GET\r\n", "DÉLETE"])
    func invalidMethod(token: String) {
        #expect(throws: APIError.invalidRequest("'\(token)' is not a valid HTTP method token")) {
            try TestEndpoint(method: HTTPMethod(rawValue: token)).urlRequest()
        }
    }

    @Test("An endpoint timeout is set on the request; none leaves the session's in charge")
    func timeout() throws {
        #expect(try TestEndpoint(timeout: 7.5).urlRequest().timeoutInterval == 7.5)
        let defaultTimeout = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval
        #expect(try TestEndpoint().urlRequest().timeoutInterval == defaultTimeout)
    }

    @Test("A timeout that is not a positive number is rejected", arguments: [0, -1, Double.nan, .infinity])
    func invalidTimeout(timeout: Double) {
        #expect {
            try TestEndpoint(timeout: timeout).urlRequest()
        } throws: { error in
            (error as? APIError)?.invalidRequestReason?.contains("timeout") == true
        }
    }

    @Test("An endpoint that names only base and path is a GET with no headers or body")
    func minimalEndpoint() throws {
        struct Minimal: Endpoint {
            var base: String { "https://api.example.com" }
            var path: String { "/ping" }
        }
        let request = try Minimal().urlRequest()
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
        #expect(request.allHTTPHeaderFields?.isEmpty ?? true)
        #expect(request.url?.absoluteString == "https://api.example.com/ping")
    }
}
