import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("RetryPolicy")
struct RetryPolicyTests {
    /// A policy whose waits are `fraction` of their ceiling and whose clock is fixed.
    static func policy(
        maximumAttempts: Int = 3,
        baseDelay: TimeInterval = 0.5,
        maximumDelay: TimeInterval = 30,
        fraction: Double = 1,
        now: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) -> RetryPolicy {
        RetryPolicy(
            maximumAttempts: maximumAttempts, baseDelay: baseDelay, maximumDelay: maximumDelay,
            random: { fraction }, now: { now }
        )
    }

    static let get = URLRequest(url: URL(string: "https://api.example.com/items")!)

    static func request(_ method: HTTPMethod) -> URLRequest {
        var request = get
        request.httpMethod = method.rawValue
        return request
    }

    static func status(_ code: Int, headers: HTTPHeaders = [:]) -> APIError {
        .unacceptableStatusCode(code, HTTPResponse(statusCode: code, headers: headers))
    }

    @Test("Transient statuses are retried, others are not", arguments: [408, 429, 500, 502, 503, 504, 400, 401, 403, 404, 409, 501])
    func statuses(code: Int) async {
        let decision = await Self.policy().retry(Self.get, for: Self.status(code), context: RequestContext())
        #expect((decision != .doNotRetry) == [408, 429, 500, 502, 503, 504].contains(code))
    }

    @Test(
        "Timeouts, lost or refused connections and DNS failures are retried; responses that are not HTTP, redirect loops and other failures are not",
        arguments: [
            (APIError.timedOut, true),
            (.requestFailed(URLError(.networkConnectionLost)), true),
            (.requestFailed(URLError(.cannotConnectToHost)), true),
            (.requestFailed(URLError(.cannotFindHost)), true),
            (.requestFailed(URLError(.dnsLookupFailed)), true),
            (.requestFailed(URLError(.badURL)), false),
            (.requestFailed(URLError(.unsupportedURL)), false),
            (.requestFailed(URLError(.secureConnectionFailed)), false),
            (.requestFailed(URLError(.badServerResponse)), false),
            (.requestFailed(URLError(.httpTooManyRedirects)), false),
            (.requestFailed(URLError(.notConnectedToInternet)), false),
            (.cancelled, false),
            (.invalidResponse, false),
            (.decodingFailed("x", body: Data(), error: CocoaError(.coderReadCorrupt)), false),
            (.invalidRequest("x"), false),
        ])
    func transportErrors(error: APIError, retried: Bool) async {
        let decision = await Self.policy().retry(Self.get, for: error, context: RequestContext())
        #expect((decision != .doNotRetry) == retried)
    }

    @Test(
        "Only idempotent methods are retried by default", arguments: ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "POST", "PATCH"])
    func methods(method: String) async {
        let request = Self.request(HTTPMethod(rawValue: method))
        let decision = await Self.policy().retry(request, for: Self.status(503), context: RequestContext())
        #expect((decision != .doNotRetry) == !["POST", "PATCH"].contains(method))
    }

    @Test("Methods, statuses and transport errors are configurable")
    func configurable() async {
        var policy = Self.policy()
        policy.retryableMethods = [.post]
        policy.retryableStatusCodes = [418]
        policy.retryableURLErrorCodes = [.notConnectedToInternet]
        let post = Self.request(.post)
        #expect(await policy.retry(post, for: Self.status(418), context: RequestContext()) != .doNotRetry)
        #expect(await policy.retry(post, for: Self.status(503), context: RequestContext()) == .doNotRetry)
        #expect(await policy.retry(Self.get, for: Self.status(418), context: RequestContext()) == .doNotRetry)
        #expect(await policy.retry(post, for: .requestFailed(URLError(.notConnectedToInternet)), context: RequestContext()) != .doNotRetry)
        #expect(await policy.retry(post, for: .timedOut, context: RequestContext()) == .doNotRetry)
    }

    @Test("No retry once maximumAttempts attempts were made")
    func maximumAttempts() async {
        let policy = Self.policy(maximumAttempts: 3)
        #expect(await policy.retry(Self.get, for: Self.status(503), context: RequestContext(attempt: 2)) != .doNotRetry)
        #expect(await policy.retry(Self.get, for: Self.status(503), context: RequestContext(attempt: 3)) == .doNotRetry)
        #expect(await Self.policy(maximumAttempts: 1).retry(Self.get, for: Self.status(503), context: RequestContext()) == .doNotRetry)
    }

    @Test("The wait ceiling doubles from the base each attempt up to the cap, and the jitter picks a point below it")
    func exponentialBackoffWithFullJitter() async {
        let full = Self.policy(maximumAttempts: 10, baseDelay: 0.5, maximumDelay: 5, fraction: 1)
        var ceilings: [RetryDecision] = []
        for attempt in 1...6 {
            ceilings.append(await full.retry(Self.get, for: Self.status(503), context: RequestContext(attempt: attempt)))
        }
        #expect(ceilings == [.retryAfter(0.5), .retryAfter(1), .retryAfter(2), .retryAfter(4), .retryAfter(5), .retryAfter(5)])

        let quarter = Self.policy(maximumAttempts: 10, baseDelay: 0.5, maximumDelay: 5, fraction: 0.25)
        #expect(await quarter.retry(Self.get, for: Self.status(503), context: RequestContext(attempt: 3)) == .retryAfter(0.5))
        let none = Self.policy(fraction: 0)
        #expect(await none.retry(Self.get, for: Self.status(503), context: RequestContext(attempt: 2)) == .retryAfter(0))
    }

    @Test("A jitter source outside 0...1 is clamped", arguments: [(-3.0, 0.0), (7.0, 0.5), (Double.nan, 0.0)])
    func jitterClamped(value: Double, expected: TimeInterval) async {
        let policy = Self.policy(baseDelay: 0.5, fraction: value)
        #expect(await policy.retry(Self.get, for: Self.status(503), context: RequestContext()) == .retryAfter(expected))
    }

    @Test("The default jitter stays between 0 and the ceiling")
    func defaultJitter() async {
        let policy = RetryPolicy(baseDelay: 2)
        for _ in 0..<100 {
            guard case .retryAfter(let delay) = await policy.retry(Self.get, for: Self.status(503), context: RequestContext()) else {
                Issue.record("not retried")
                return
            }
            #expect((0...2).contains(delay))
        }
    }

    @Test(
        "Retry-After in seconds or as an HTTP date replaces the backoff",
        arguments: [
            ("7", 7.0),
            (" 12 ", 12.0),
            ("\t30\t", 30.0),
            ("Tue, 14 Nov 2023 22:13:27 GMT", 7.0),
            ("Tue, 14 Nov 2023 22:13:50 GMT", 30.0),
            ("Tue, 14 Nov 2023 22:00:00 GMT", 0.0),
            ("Tuesday, 14-Nov-23 22:13:30 GMT", 10.0),
            ("Tue Nov 14 22:13:32 2023", 12.0),
            ("Tue Nov  4 22:14:25 2023", 0.0),
        ])
    func retryAfter(header: String, expected: TimeInterval) async {
        // 1_700_000_000 is Tue, 14 Nov 2023 22:13:20 GMT.
        let policy = Self.policy(maximumDelay: 30, fraction: 0.5)
        let error = Self.status(503, headers: ["Retry-After": header])
        #expect(await policy.retry(Self.get, for: error, context: RequestContext()) == .retryAfter(expected))
    }

    @Test(
        "A Retry-After longer than maximumDelay is not retried: a retry never comes before the server allows",
        arguments: ["31", "120", "99999999999999999999999", "Tue, 14 Nov 2023 22:20:00 GMT", "Tue, 14 Nov 2023 22:13:51 GMT"])
    func retryAfterBeyondMaximum(header: String) async {
        let policy = Self.policy(maximumDelay: 30, fraction: 0.5)
        let error = Self.status(503, headers: ["Retry-After": header])
        #expect(await policy.retry(Self.get, for: error, context: RequestContext()) == .doNotRetry)
    }

    @Test("Through a client, a long Retry-After ends the request with the response, header included, after one attempt")
    func longRetryAfterThroughClient() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", StubResponse(statusCode: 503, headers: ["Retry-After": "120"]))
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(interceptors: [RetryPolicy()], callbackQueue: DispatchQueue(label: "tests.callback")))
        let result = await client.fetch(TestEndpoint(), as: Empty.self)
        #expect(result.failure?.statusCode == 503)
        #expect(result.failure?.response?.headers["Retry-After"] == "120")
        #expect(stubs.requests.count == 1)
    }

    @Test(
        "An unreadable Retry-After falls back to the backoff",
        arguments: ["soon", "-5", "1.5", "", "Tue, 14 Nov 2023 25:99:00 GMT", "\u{A0}7", "7\u{2003}"])
    func unreadableRetryAfter(header: String) async {
        let policy = Self.policy(baseDelay: 0.5, fraction: 1)
        let error = Self.status(429, headers: ["Retry-After": header])
        #expect(await policy.retry(Self.get, for: error, context: RequestContext()) == .retryAfter(0.5))
    }

    @Test("Through a client: transient failures are retried until one succeeds")
    func retriesEndingInSuccess() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .failure(URLError(.networkConnectionLost)))
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"A"}"#))
        let events = EventLog()
        let movie = try await client(stubs, [Self.policy(baseDelay: 0.001), events]).send(TestEndpoint(), as: Movie.self)
        #expect(movie == Movie(id: 1, title: "A"))
        #expect(stubs.requests.count == 3)
        #expect(events.attempts.map(\.retryDelay) == [0.001, 0.002, nil])
        #expect(events.finished.map(\.attempts) == [3])
    }

    @Test("Through a client: after the last attempt the caller gets its error, and events count the attempts")
    func retriesEndingInFailure() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .status(502))
        let events = EventLog()
        let error = await client(stubs, [Self.policy(maximumAttempts: 4, baseDelay: 0.001), events])
            .fetch(TestEndpoint(), as: Empty.self).failure
        #expect(error?.statusCode == 502)
        #expect(stubs.requests.count == 4)
        #expect(events.finished.map(\.attempts) == [4])
        #expect(events.finished.first?.error == error)
    }

    @Test("Through a client: a POST is sent once")
    func postNotRetried() async {
        let stubs = StubSession()
        stubs.register(.post, "/items", .status(503))
        _ = await client(stubs, [Self.policy(baseDelay: 0.001)]).fetch(TestEndpoint(method: .post), as: Empty.self)
        #expect(stubs.requests.count == 1)
    }

    @Test("Cancelling the caller's task during a long backoff ends the request at once with .cancelled")
    func cancelDuringBackoff() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        let events = EventLog()
        let client = client(stubs, [Self.policy(baseDelay: 600, maximumDelay: 600), events])
        let task = Task { await client.fetch(TestEndpoint(), as: Empty.self) }
        #expect(await eventually { events.attempts.first?.retryDelay == 600 }, "the 600 s backoff began")
        task.cancel()
        let result = await withWatchdog(seconds: 30) { await task.value }
        #expect(result?.failure == .cancelled)
        #expect(stubs.requests.count == 1)
    }
}
