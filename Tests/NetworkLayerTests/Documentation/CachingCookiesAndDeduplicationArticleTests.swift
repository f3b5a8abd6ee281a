import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article CachingCookiesAndDeduplication.md, compiled and run against stubs.
    @Suite("Article: Caching, cookies and de-duplication")
    struct CachingCookiesAndDeduplicationArticleTests {
        struct User: Decodable, Sendable { let name: String }

        @Test("Keep cookies with a cookie jar: a sign-in redirect's cookie reaches the profile call")
        func cookieJar() async throws {
            let stubs = StubTransport()
            stubs.register(.post, "/login") { _ in
                StubResponse(statusCode: 302, headers: ["Location": "/home", "Set-Cookie": "session=abc; Path=/; HttpOnly"])
            }
            stubs.register(.get, "/home", .status(204))
            stubs.register(.get, "/me") { request in
                request.headers["Cookie"] == "session=abc" ? .json(#"{"name":"Ada"}"#) : .status(401)
            }
            var signIn = URLRequest(url: try #require(URL(string: "https://api.example.com/login")))
            signIn.httpMethod = "POST"
            let profile = URLRequest(url: try #require(URL(string: "https://api.example.com/me")))

            let jar = CookieJar()
            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [jar]))

            _ = try await client.response(with: signIn)  // Set-Cookie: session=…
            let me = try await client.send(with: profile, as: User.self)  // Cookie: session=…
            #expect(me.name == "Ada")
            #expect(stubs.requests(.get, "/home").first?.headers["Cookie"] == "session=abc")
        }

        @Test("The recommended session configuration turns URLSession's cookie handling off, as the default one does")
        func sessionConfiguration() {
            let configuration = URLSessionConfiguration.default
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            configuration.httpCookieStorage = nil

            let byDefault = URLSessionTransport.defaultConfiguration()
            #expect(!byDefault.httpShouldSetCookies && byDefault.httpCookieStorage == nil)
            #expect(byDefault.httpCookieAcceptPolicy == configuration.httpCookieAcceptPolicy)
        }

        @Test("Send identical requests once: two identical GETs at once reach the transport once")
        func deduplicator() async throws {
            let stubs = StubTransport()
            stubs.register(.get, "/me", .json(#"{"name":"Ada"}"#, delay: 0.5))
            let profile = URLRequest(url: try #require(URL(string: "https://api.example.com/me")))

            let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [Deduplicator()]))

            async let first = client.send(with: profile, as: User.self)
            async let second = client.send(with: profile, as: User.self)
            #expect(try await [first.name, second.name] == ["Ada", "Ada"])
            #expect(stubs.requests.count == 1)
        }
    }
}
