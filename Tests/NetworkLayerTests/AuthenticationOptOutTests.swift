import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records what each attempt's context says about authentication.
private struct AuthenticationFlagRecorder: Interceptor {
    let flags = Locked<[Bool]>([])

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        flags.withLock { $0.append(context.requiresAuthentication) }
        return request
    }
}

private struct APIKey: Authenticator {
    func authenticate(_ request: inout URLRequest) async throws {
        request.setValue("k-1", forHTTPHeaderField: "X-API-Key")
    }
}

@Suite("Authentication opt-out")
struct AuthenticationOptOutTests {
    private static let login = TestEndpoint(path: "/login", method: .post, requiresAuthentication: false)

    @Test("A sign-in endpoint without authentication sends no credential and refreshes nothing while there is none")
    func loginWithoutCredential() async throws {
        let stubs = StubSession()
        stubs.register(.post, "/login", .json(#"{"token":"t-1"}"#))
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: nil) { _ in
            refreshes.increment()
            return "refreshed"
        }
        _ = try await client(stubs, [auth]).send(Self.login, as: Data.self)
        #expect(stubs.requests.count == 1)
        #expect(stubs.requests.first?.headers.authorization == nil)
        #expect(refreshes.count == 0)
        #expect(auth.credential == nil)
    }

    @Test("A 401 on an endpoint without authentication is its error: no refresh, no retry")
    func unauthorizedLogin() async {
        let stubs = StubSession()
        stubs.register(.post, "/login", .status(401))
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "t-1") { _ in
            refreshes.increment()
            return "refreshed"
        }
        await #expect(throws: APIError.self) { try await client(stubs, [auth]).send(Self.login, as: Empty.self) }
        #expect(stubs.requests.count == 1)
        #expect(refreshes.count == 0)
        #expect(auth.credential == "t-1")
    }

    @Test("A public endpoint gets no credential from any authenticator, though one is there")
    func publicEndpoint() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/public", .status(204))
        let authenticators: [any Interceptor] = [
            RefreshingAuthenticator(token: "t-1") { _ in "refreshed" }, BearerTokenAuthenticator(token: "abc"),
            BasicAuthenticator(username: "user", password: "passwd"), APIKey(),
        ]
        for authenticator in authenticators {
            _ = try await client(stubs, [authenticator]).send(
                TestEndpoint(path: "/public", requiresAuthentication: false), as: Empty.self)
        }
        #expect(stubs.requests.count == 4)
        #expect(stubs.requests.allSatisfy { $0.headers.authorization == nil && $0.headers["X-API-Key"] == nil })
    }

    @Test("An endpoint that requires authentication still gets the credential, and refreshes it on 401")
    func normalEndpoint() async throws {
        let refreshes = Counter()
        let stubs = RefreshingAuthenticatorTests.stubs(accepting: "new-1")
        let auth = RefreshingAuthenticator(token: "old") { _ in "new-\(refreshes.increment())" }
        _ = try await client(stubs, [auth]).send(TestEndpoint(), as: Movie.self)
        #expect(stubs.requests.map(\.headers.authorization) == ["Bearer old", "Bearer new-1"])
        #expect(refreshes.count == 1)

        let basic = StubSession()
        basic.register(.get, "/items", .status(204))
        _ = try await client(basic, [BasicAuthenticator(username: "user", password: "passwd"), APIKey()]).send(
            TestEndpoint(), as: Empty.self)
        #expect(basic.requests.first?.headers.authorization == "Basic dXNlcjpwYXNzd2Q=")
        #expect(basic.requests.first?.headers["X-API-Key"] == "k-1")
    }

    @Test("Interceptors read the flag: the endpoint's, a Request's, true for a request built by hand")
    func contextCarriesTheFlag() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}"))
        let recorder = AuthenticationFlagRecorder()
        let client = client(stubs, [recorder])
        _ = try await client.send(TestEndpoint(requiresAuthentication: false), as: Empty.self)
        _ = try await client.send(TestEndpoint(), as: Empty.self)
        _ = try await client.send(with: URLRequest(url: try #require(URL(string: "https://api.example.com/items"))), as: Empty.self)
        let request = Request<Empty>(base: "https://api.example.com", path: "/items", options: CallOptions(requiresAuthentication: false))
        _ = try await client.send(request)
        _ = try await client.send(Request<Empty>(TestEndpoint(requiresAuthentication: false)))
        _ = try await client.send(Request<Empty>(base: "https://api.example.com", path: "/items"))
        #expect(recorder.flags.withLock { $0 } == [false, true, true, false, false, true])
        #expect(RequestContext().requiresAuthentication)
    }

    /// Answers `/token` with a new token whatever it carries, and `/items` only to `Bearer fresh`.
    private static func tokenStubs() -> StubSession {
        let stubs = StubSession()
        stubs.register(.post, "/token") { _ in .json(#"{"token":"fresh"}"#) }
        stubs.register(.get, "/items") { request in
            request.headers.authorization == "Bearer fresh" ? .json(#"{"id":1,"title":"A"}"#) : .status(401)
        }
        return stubs
    }

    private struct Token: Decodable { let token: String }

    @Test("A refresh through a client without the authenticator refreshes once and the request goes through")
    func refreshThroughSeparateClient() async throws {
        let stubs = Self.tokenStubs()
        let authClient = client(stubs, [])
        let auth = RefreshingAuthenticator(token: nil) { _ in
            try await authClient.send(TestEndpoint(path: "/token", method: .post, requiresAuthentication: false), as: Token.self).token
        }
        let movie = await withWatchdog(seconds: 30) {
            await client(stubs, [auth]).fetch(TestEndpoint(), as: Movie.self)
        }
        #expect(try movie?.get() == Movie(id: 1, title: "A"))
        #expect(stubs.requests.map(\.path) == ["/token", "/items"])
        #expect(stubs.requests.first?.headers.authorization == nil)
    }

    @Test("A refresh through the same client from an endpoint without authentication does not wait for itself")
    func refreshThroughSameClient() async throws {
        let stubs = Self.tokenStubs()
        let shared = Locked<NetworkClient?>(nil)
        let auth = RefreshingAuthenticator(token: "expired") { _ in
            let client = try #require(shared.withLock { $0 })
            return try await client.send(TestEndpoint(path: "/token", method: .post, requiresAuthentication: false), as: Token.self).token
        }
        let client = client(stubs, [auth])
        shared.withLock { $0 = client }
        let movie = await withWatchdog(seconds: 30) { await client.fetch(TestEndpoint(), as: Movie.self) }
        #expect(try movie?.get() == Movie(id: 1, title: "A"))
        #expect(stubs.requests.map(\.path) == ["/items", "/token", "/items"])
        #expect(auth.credential == "fresh")
    }

    @Test("A refresh whose call goes through its own authenticator fails at once instead of waiting for itself")
    func refreshThroughOwnAuthenticator() async throws {
        let stubs = Self.tokenStubs()
        let shared = Locked<NetworkClient?>(nil)
        let auth = RefreshingAuthenticator(token: nil) { _ in
            let client = try #require(shared.withLock { $0 })
            return try await client.send(TestEndpoint(path: "/token", method: .post), as: Token.self).token
        }
        let client = client(stubs, [auth])
        shared.withLock { $0 = client }
        let error = await withWatchdog(seconds: 30) { await client.fetch(TestEndpoint(), as: Movie.self).failure }
        guard case .credentialRefreshFailed(let reason)?? = error else {
            Issue.record("expected credentialRefreshFailed, got \(String(describing: error))")
            return
        }
        #expect("\(reason)".contains("would wait for itself"))
        #expect(stubs.requests.isEmpty)
    }
}
