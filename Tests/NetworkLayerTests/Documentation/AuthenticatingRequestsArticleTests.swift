import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article AuthenticatingRequests.md, compiled and run against stubs.
    @Suite("Article: Authenticating requests")
    struct AuthenticatingRequestsArticleTests {
        typealias MovieAPI = Article.MovieAPI
        typealias MoviePage = Article.MoviePage

        struct APIKey: Authenticator {
            let key: String
            func authenticate(_ request: inout URLRequest) async throws {
                request.setValue(key, forHTTPHeaderField: "X-API-Key")
            }
        }

        struct Session: Sendable { let accessToken: String; let refreshToken: String }

        /// Stands in for the app's session service.
        struct SessionService: Sendable {
            func renew(_ session: Session?) async throws -> Session {
                Session(accessToken: "renewed", refreshToken: session?.refreshToken ?? "")
            }
        }

        struct SignIn: Encodable, Sendable { let user: String; let password: String }
        struct Token: Decodable { let accessToken: String }

        enum AuthAPI: Endpoint {
            case signIn(user: String, password: String)
            case refresh(refreshToken: String)

            var base: String { "https://api.example.com" }
            var path: String {
                switch self {
                case .signIn: "/session"
                case .refresh: "/session/refresh"
                }
            }
            var method: HTTPMethod { .post }
            var task: HTTPTask {
                switch self {
                case .signIn(let user, let password): .requestJSONBody(SignIn(user: user, password: password))
                case .refresh(let refreshToken): .requestJSONBody(["refreshToken": refreshToken])
                }
            }
            var options: CallOptions { CallOptions(requiresAuthentication: false) }  // no credential, no refresh
        }

        /// The value of `name` on the request `authenticator` makes of a plain one.
        func header(_ name: String, from authenticator: some Authenticator) async throws -> String? {
            var request = URLRequest(url: try #require(URL(string: "https://api.example.com")))
            try await authenticator.authenticate(&request)
            return request.value(forHTTPHeaderField: name)
        }

        @Test("An authenticator of your own, and the two ready ones")
        func authenticators() async throws {
            let tokenStore = Article.TokenService()
            let fixed = BearerTokenAuthenticator(token: "abc123")
            let fromStore = BearerTokenAuthenticator { try await tokenStore.token() }
            let basic = BasicAuthenticator(username: "user", password: "passwd")

            #expect(try await header("X-API-Key", from: APIKey(key: "k")) == "k")
            #expect(try await header("Authorization", from: fixed) == "Bearer abc123")
            #expect(try await header("Authorization", from: fromStore) == "Bearer stored")
            #expect(try await header("Authorization", from: basic) == "Basic dXNlcjpwYXNzd2Q=")
        }

        @Test("RefreshingAuthenticator refreshes once for requests rejected together")
        func refreshOnce() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular") { request in
                request.headers["Authorization"] == "Bearer fresh-1" ? .json(#"{"page":1,"results":[]}"#, delay: 0.05) : .status(401)
            }
            let tokenService = Article.TokenService()
            let storedToken: String? = "expired"

            let auth = RefreshingAuthenticator(token: storedToken) { expiredToken in
                try await tokenService.refresh()
            }
            let client = Article.client(stubs, interceptors: [auth])
            async let first = client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
            async let second = client.send(MovieAPI.popular(page: 2), as: MoviePage.self)
            _ = try await (first, second)

            #expect(tokenService.refreshes == 1)
            #expect(auth.credential == "fresh-1")
        }

        @Test("Any credential type, with your own test for rejected")
        func customCredential() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/3/movie/popular") { request in
                request.headers["X-Access-Token"] == "renewed" ? .json(#"{"page":1,"results":[]}"#) : .status(419)
            }
            let tokenService = SessionService()
            let savedSession: Session? = Session(accessToken: "old", refreshToken: "r")

            let sessionAuth = RefreshingAuthenticator<Session>(
                credential: savedSession,
                apply: { session, request in request.setValue(session.accessToken, forHTTPHeaderField: "X-Access-Token") },
                isUnauthorized: { $0.statusCode == 419 },
                refresh: { session in try await tokenService.renew(session) }
            )
            let client = Article.client(stubs, interceptors: [sessionAuth])
            _ = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)

            #expect(stubs.requests.map { $0.headers["X-Access-Token"] } == ["old", "renewed"])
            #expect(sessionAuth.credential?.refreshToken == "r")
        }

        @Test("Sign in without a credential, then refresh through a client without the authenticator")
        func signInAndRefresh() async throws {
            let stubs = StubSession()
            stubs.register(.post, "/session", .json(#"{"accessToken":"t-1"}"#))
            stubs.register(.post, "/session/refresh", .json(#"{"accessToken":"fresh"}"#))
            stubs.register(.get, "/3/movie/popular") { request in
                request.headers["Authorization"] == "Bearer fresh" ? .json(#"{"page":1,"results":[]}"#) : .status(401)
            }
            let storedToken: String? = nil
            let refreshToken = "r-1"

            let authClient = Article.client(stubs)  // no authenticator: the refresh never waits for itself
            let auth = RefreshingAuthenticator(token: storedToken) { expiredToken in
                // runs once, however many requests got 401 together
                try await authClient.send(AuthAPI.refresh(refreshToken: refreshToken), as: Token.self).accessToken
            }
            let client = Article.client(stubs, interceptors: [auth, RetryPolicy()])
            let token = try await client.send(AuthAPI.signIn(user: "ada", password: "secret"), as: Token.self)
            auth.setCredential(token.accessToken)

            let page = await withWatchdog(seconds: 30) { await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self) }
            #expect(try page?.get().page == 1)
            #expect(stubs.requests.map(\.path) == ["/session", "/3/movie/popular", "/session/refresh", "/3/movie/popular"])
            #expect(stubs.requests.map(\.headers["Authorization"]) == [nil, "Bearer t-1", nil, "Bearer fresh"])
            let request = Request<Token>(
                base: "https://api.example.com", path: "/session", method: .post, options: CallOptions(requiresAuthentication: false))
            #expect(!request.options.requiresAuthentication)
        }
    }
}
