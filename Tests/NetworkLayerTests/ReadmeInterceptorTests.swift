import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's interceptor samples, compiled and run against stubs so they cannot rot.
private enum ReadmeInterceptors {
    struct UserAgent: Interceptor {
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            var request = request
            request.setValue("MovieApp/1.0", forHTTPHeaderField: "User-Agent")
            return request
        }
    }

    struct APIKey: Authenticator {
        let key: String
        func authenticate(_ request: inout URLRequest) async throws {
            request.setValue(key, forHTTPHeaderField: "X-API-Key")
        }
    }

    /// Stands in for the app's token service.
    struct TokenService: Sendable {
        let refreshes = Counter()
        func refresh() async throws -> String { "fresh-\(refreshes.increment())" }
        func token() async throws -> String { "stored" }
    }
}

@Suite("README samples: interceptors")
struct ReadmeInterceptorTests {
    typealias MovieAPI = Readme.MovieAPI

    @Test("Quick tour: a refreshing authenticator, a retry policy and a logger on one client")
    func tour() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular") { request in
            request.headers.authorization == "Bearer fresh-1" ? .json(#"{"page":1,"results":[]}"#) : .status(401)
        }
        let tokenService = ReadmeInterceptors.TokenService()
        let storedToken: String? = "expired"
        let lines = LockedArray<String>()

        let auth = RefreshingAuthenticator(token: storedToken) { _ in try await tokenService.refresh() }
        let client = NetworkClient(
            session: stubs.session, interceptors: [auth, RetryPolicy(), NetworkLogger { lines.append($0) }],
            callbackQueue: DispatchQueue(label: "readme"))

        let page = try await client.send(MovieAPI.popular(page: 1), as: Readme.MoviePage.self)
        #expect(page.page == 1)
        #expect(tokenService.refreshes.count == 1)
        #expect(lines.count == 3, "two attempts and a summary")
    }

    @Test("Writing an interceptor and an authenticator")
    func customInterceptors() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
        let tokenStore = ReadmeInterceptors.TokenService()
        let fromStore = BearerTokenAuthenticator { try await tokenStore.token() }
        let client = NetworkClient(
            session: stubs.session, interceptors: [ReadmeInterceptors.UserAgent(), ReadmeInterceptors.APIKey(key: "k"), fromStore])
        _ = try await client.send(MovieAPI.popular(page: 1), as: Readme.MoviePage.self)
        let headers = try #require(stubs.requests.first?.headers)
        #expect(headers["User-Agent"] == "MovieApp/1.0")
        #expect(headers["X-API-Key"] == "k")
        #expect(headers.authorization == "Bearer stored")

        let basic = BasicAuthenticator(username: "user", password: "passwd")
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com")))
        try await basic.authenticate(&request)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Basic dXNlcjpwYXNzd2Q=")
    }

    @Test("RetryPolicy options")
    func retryPolicy() async {
        let patient = RetryPolicy(maximumAttempts: 5, baseDelay: 1, maximumDelay: 10, retryableStatusCodes: [503])
        let request = URLRequest(url: URL(string: "https://api.example.com")!)
        let unavailable = APIError.unacceptableStatusCode(503, HTTPResponse(statusCode: 503, headers: ["Retry-After": "120"]))
        #expect(await patient.retry(request, for: unavailable, context: RequestContext()) == .doNotRetry)
        let soon = APIError.unacceptableStatusCode(503, HTTPResponse(statusCode: 503, headers: ["Retry-After": "8"]))
        #expect(await patient.retry(request, for: soon, context: RequestContext()) == .retryAfter(8))
        #expect(RetryPolicy().maximumAttempts == 3)
    }

    @Test("The cURL sample prints what the README shows")
    func cURL() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/items?api_key=k")))
        request.httpMethod = "POST"
        request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"Bob's"}"#.utf8)
        #expect(
            request.cURLDescription(redacting: .default) == """
                curl -X POST 'https://api.example.com/items?api_key=<redacted>' \\
                  -H 'Authorization: <redacted>' \\
                  -H 'Content-Type: application/json' \\
                  --data-binary '{"name":"Bob'\\''s"}'
                """)
    }

    @Test("An EventMonitor sees every event")
    func events() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
        let seen = LockedArray<String>()
        let metrics = EventMonitor { event in
            switch event {
            case .requestStarted(let id, let request): seen.append("\(id > 0) \(request.url?.path ?? "")")
            case .attemptFinished(let attempt): seen.append("\(attempt.attempt) \(attempt.statusCode ?? 0) \(attempt.bytesReceived)")
            case .requestFinished(let request): seen.append("\(request.attempts) \(request.error == nil)")
            }
        }
        _ = try await NetworkClient(session: stubs.session, interceptors: [metrics]).send(MovieAPI.popular(page: 1), as: Empty.self)
        #expect(seen.elements == ["true /3/movie/popular", "1 200 23", "1 true"])
    }
}
