import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An authenticator of our own, through the protocol's default `adapt`.
private struct APIKeyAuthenticator: Authenticator {
    let key: String
    func authenticate(_ request: inout URLRequest) async throws {
        request.setValue(key, forHTTPHeaderField: "X-API-Key")
    }
}

private struct RefreshDenied: Error, CustomStringConvertible {
    var description: String { "the refresh token was revoked" }
}

@Suite("Authenticators")
struct AuthenticationTests {
    @Test("An Authenticator's authenticate(_:) adapts every request")
    func customAuthenticator() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(204))
        _ = try await client(stubs, [APIKeyAuthenticator(key: "k-1")]).send(TestEndpoint(), as: Empty.self)
        #expect(stubs.requests.first?.headers["X-API-Key"] == "k-1")
    }

    @Test("BearerTokenAuthenticator sends the token, asking its provider again for each attempt")
    func bearerToken() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .status(204))
        let calls = Counter()
        let authenticator = BearerTokenAuthenticator { "token-\(calls.increment())" }
        _ = try await client(stubs, [authenticator, ScriptedRetrier { _, _ in .retry }]).send(TestEndpoint(), as: Empty.self)
        #expect(stubs.requests.map(\.headers.authorization) == ["Bearer token-1", "Bearer token-2"])

        let fixed = StubSession()
        fixed.register(.get, "/items", .status(204))
        _ = try await client(fixed, [BearerTokenAuthenticator(token: "abc")]).send(TestEndpoint(), as: Empty.self)
        #expect(fixed.requests.first?.headers.authorization == "Bearer abc")
    }

    @Test("A token provider that throws stops the request before it is sent")
    func bearerTokenFailure() async {
        let stubs = StubSession()
        let authenticator = BearerTokenAuthenticator { throw RefreshDenied() }
        await #expect(throws: APIError.adaptationFailed(interceptor: "BearerTokenAuthenticator", error: RefreshDenied())) {
            try await client(stubs, [authenticator]).send(TestEndpoint(), as: Empty.self)
        }
        #expect(stubs.requests.isEmpty)
    }

    @Test("BasicAuthenticator sends RFC 7617 credentials")
    func basic() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(204))
        _ = try await client(stubs, [BasicAuthenticator(username: "user", password: "pässwd")]).send(TestEndpoint(), as: Empty.self)
        #expect(stubs.requests.first?.headers.authorization == "Basic dXNlcjpww6Rzc3dk")
    }
}

@Suite("RefreshingAuthenticator")
struct RefreshingAuthenticatorTests {
    /// Answers 200 only to `Bearer <valid>`, 401 otherwise.
    static func stubs(accepting valid: String) -> StubSession {
        let stubs = StubSession()
        stubs.register(.get, "/items") { request in
            request.headers.authorization == "Bearer \(valid)" ? .json(#"{"id":1,"title":"A"}"#) : .status(401)
        }
        return stubs
    }

    @Test("Fifty requests rejected at once: one refresh, and each is retried once with the new token")
    func fiftyConcurrent401s() async throws {
        let stubs = Self.stubs(accepting: "new")
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { old in
            refreshes.increment()
            #expect(old == "old")
            return "new"
        }
        let client = client(stubs, [auth, FirstAttemptBarrier(count: 50)])
        let movies = try await withThrowingTaskGroup(of: Movie.self) { group in
            for _ in 0..<50 {
                group.addTask { try await client.send(TestEndpoint(), as: Movie.self) }
            }
            return try await group.reduce(into: [Movie]()) { $0.append($1) }
        }
        #expect(movies.count == 50)
        #expect(refreshes.count == 1)
        let tokens = stubs.requests.map(\.headers.authorization)
        #expect(tokens.count == 100)
        #expect(tokens.filter { $0 == "Bearer old" }.count == 50)
        #expect(tokens.filter { $0 == "Bearer new" }.count == 50)
        #expect(auth.credential == "new")
    }

    @Test("A failed refresh fails every request waiting for it with credentialRefreshFailed, and runs once")
    func failedRefreshFailsAll() async throws {
        let stubs = Self.stubs(accepting: "new")
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in
            refreshes.increment()
            throw RefreshDenied()
        }
        let client = client(stubs, [auth, FirstAttemptBarrier(count: 50)])
        let errors = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<50 {
                group.addTask { await client.fetch(TestEndpoint(), as: Movie.self).failure }
            }
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }
        #expect(errors.count == 50)
        #expect(errors.allSatisfy { $0 == .credentialRefreshFailed(RefreshDenied()) })
        #expect(refreshes.count == 1)
        #expect(stubs.requests.count == 50, "nothing was retried")
        #expect(auth.credential == "old")
    }

    @Test("A 401 after a refresh is final: no second refresh, no loop")
    func noLoop() async {
        let stubs = Self.stubs(accepting: "never")
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in "new-\(refreshes.increment())" }
        let client = client(stubs, [auth])
        let error = await withWatchdog(seconds: 30) { await client.fetch(TestEndpoint(), as: Movie.self).failure }
        #expect(error??.statusCode == 401)
        #expect(refreshes.count == 1)
        #expect(stubs.requests.map(\.headers.authorization) == ["Bearer old", "Bearer new-1"])
    }

    @Test("A request sent with an older credential is retried with the current one, without another refresh")
    func olderCredentialNotRefreshedAgain() async throws {
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in "new-\(refreshes.increment())" }
        let unauthorized = APIError.unacceptableStatusCode(401, HTTPResponse(statusCode: 401))
        let slow = RequestContext(requestID: 1)
        let fast = RequestContext(requestID: 2)
        let slowRequest = try await auth.adapt(RetryPolicyTests.get, context: slow)
        _ = try await auth.adapt(RetryPolicyTests.get, context: fast)

        #expect(await auth.retry(RetryPolicyTests.get, for: unauthorized, context: fast) == .retry)
        #expect(refreshes.count == 1)
        #expect(slowRequest.value(forHTTPHeaderField: "Authorization") == "Bearer old")
        #expect(await auth.retry(slowRequest, for: unauthorized, context: slow) == .retry)
        #expect(refreshes.count == 1, "the slow request's rejected credential had already been replaced")
        let retried = try await auth.adapt(
            RetryPolicyTests.get, context: RequestContext(requestID: 1, attempt: 2, previousErrors: [unauthorized]))
        #expect(retried.value(forHTTPHeaderField: "Authorization") == "Bearer new-1")
    }

    @Test("Through a client: a slow request rejected after another one's refresh is retried without refreshing again", .timeSensitive)
    func olderCredentialThroughClient() async throws {
        let stubs = Self.stubs(accepting: "new")
        stubs.register(.get, "/slow") { request in
            request.headers.authorization == "Bearer new" ? .status(204) : .status(401)
        }
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in
            refreshes.increment()
            return "new"
        }
        // Holds the slow request's 401 until the other request's refresh has finished, then lets the authenticator decide.
        let waitForRefresh = WaitingRetrier(path: "/slow") { auth.credential == "new" }
        let client = client(stubs, [waitForRefresh, auth])
        async let slow = client.send(TestEndpoint(path: "/slow"), as: Empty.self)
        #expect(await eventually { stubs.requests(.get, "/slow").count == 1 })
        _ = try await client.send(TestEndpoint(), as: Movie.self)
        _ = try await slow
        #expect(refreshes.count == 1)
        #expect(stubs.requests(.get, "/slow").map(\.headers.authorization) == ["Bearer old", "Bearer new"])
    }

    @Test("After a failed refresh, a request sent later that is rejected tries a new refresh")
    func refreshAgainAfterFailure() async throws {
        let stubs = Self.stubs(accepting: "new")
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in
            if refreshes.increment() == 1 { throw RefreshDenied() }
            return "new"
        }
        let client = client(stubs, [auth])
        #expect(await client.fetch(TestEndpoint(), as: Movie.self).failure == .credentialRefreshFailed(RefreshDenied()))
        _ = try await client.send(TestEndpoint(), as: Movie.self)
        #expect(refreshes.count == 2)
    }

    @Test("With no credential yet, the first requests wait for one refresh and are sent with its result")
    func noInitialCredential() async throws {
        let stubs = Self.stubs(accepting: "first")
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: nil) { old in
            #expect(old == nil)
            refreshes.increment()
            try await Task.sleep(nanoseconds: 20_000_000)
            return "first"
        }
        let client = client(stubs, [auth])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { _ = try await client.send(TestEndpoint(), as: Movie.self) }
            }
            try await group.waitForAll()
        }
        #expect(refreshes.count == 1)
        #expect(stubs.requests.count == 50)
        #expect(stubs.requests.allSatisfy { $0.headers.authorization == "Bearer first" })
    }

    @Test("setCredential replaces the credential; a request rejected with the old one is retried without refreshing")
    func setCredential() async throws {
        let refreshes = Counter()
        let auth = RefreshingAuthenticator(token: "old") { _ in "refreshed-\(refreshes.increment())" }
        let unauthorized = APIError.unacceptableStatusCode(401, HTTPResponse(statusCode: 401))
        let context = RequestContext(requestID: 1)
        _ = try await auth.adapt(RetryPolicyTests.get, context: context)
        auth.setCredential("signed-in-again")
        #expect(await auth.retry(RetryPolicyTests.get, for: unauthorized, context: context) == .retry)
        #expect(refreshes.count == 0)
        #expect(auth.credential == "signed-in-again")
    }

    @Test("Errors other than 401 are left to the next interceptor")
    func otherErrors() async {
        let auth = RefreshingAuthenticator(token: "old") { _ in "new" }
        #expect(await auth.retry(RetryPolicyTests.get, for: RetryPolicyTests.status(503), context: RequestContext()) == .doNotRetry)
        #expect(await auth.retry(RetryPolicyTests.get, for: .timedOut, context: RequestContext()) == .doNotRetry)
    }

    @Test("Any credential type, applied your way, with your own test for rejection")
    func genericCredential() async throws {
        struct Session: Sendable {
            let id: String
        }
        let stubs = StubSession()
        stubs.register(.get, "/items") { request in
            switch request.headers["X-Session"] {
            case "s2": .status(204)
            case "s1": .status(419)
            default: .status(400)
            }
        }
        let auth = RefreshingAuthenticator<Session>(
            credential: Session(id: "s1"),
            apply: { session, request in request.setValue(session.id, forHTTPHeaderField: "X-Session") },
            isUnauthorized: { $0.statusCode == 419 },
            refresh: { _ in Session(id: "s2") }
        )
        _ = try await client(stubs, [auth]).send(TestEndpoint(), as: Empty.self)
        #expect(stubs.requests.map { $0.headers["X-Session"] } == ["s1", "s2"])
    }
}

/// For requests to `path`, waits until `condition` holds (at most 30 s) before letting the next retrier decide.
private struct WaitingRetrier: Interceptor {
    let path: String
    let condition: @Sendable () -> Bool

    func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        guard request.url?.path == path else { return .doNotRetry }
        _ = await eventually(timeout: 30, condition)
        return .doNotRetry
    }
}
