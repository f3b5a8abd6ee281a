import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fails to adapt with an error of its own.
private struct KeychainAdapter: Interceptor {
    struct Locked: Error, CustomStringConvertible {
        var description: String { "the keychain is locked" }
    }

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        throw Locked()
    }
}

/// Fails to adapt with an `APIError`.
private struct ThrowingAPIErrorAdapter: Interceptor {
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        throw APIError.invalidRequest("no tenant selected")
    }
}

/// The smallest client: a transport and a configuration of defaults, so it has no interceptors.
private struct TransportOnlyClient: APIClient {
    let transport: any HTTPTransport
    let configuration = ClientConfiguration()
}

@Suite("Interceptor pipeline")
struct InterceptorPipelineTests {
    @Test("A client with only a transport has no interceptors and sends as before")
    func defaultIsEmpty() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        let client = TransportOnlyClient(transport: URLSessionTransport(session: stubs.session))
        #expect(client.configuration.interceptors.isEmpty)
        #expect(await client.fetch(TestEndpoint(), as: Empty.self).failure?.statusCode == 503)
        #expect(stubs.requests.count == 1)
    }

    @Test("Adapters run in order, each on the previous one's request, starting from the built request on every attempt")
    func adaptersRunInOrderOnEveryAttempt() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .status(204))
        let first = HeaderAdapter(header: "X-Step", value: "first")
        let second = HeaderAdapter(header: "X-Step", value: "second")
        let retrier = ScriptedRetrier { _, _ in .retry }
        _ = try await client(stubs, [first, second, retrier]).send(TestEndpoint(headers: ["X-Step": "built"]), as: Empty.self)

        #expect(first.seen.elements == ["built", "built"], "each attempt starts again from the built request")
        #expect(second.seen.elements == ["first", "first"], "the second adapter gets the first one's request")
        #expect(stubs.requests.map { $0.headers["X-Step"] } == ["second", "second"])
    }

    @Test("Every way of sending goes through the interceptors", arguments: SendStyle.allCases)
    func everySendPath(style: SendStyle) async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"A"}"#))
        let adapter = HeaderAdapter(header: "X-Adapted", value: "yes")
        let events = EventLog()
        try await style.send(TestEndpoint(), with: client(stubs, [adapter, events]))
        #expect(stubs.requests.map { $0.headers["X-Adapted"] } == ["yes"])
        #expect(events.finished.count == 1)
    }

    @Test("A failing adapter is an APIError naming it and its reason, and nothing is sent")
    func failingAdapter() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(204))
        let later = HeaderAdapter(header: "X-Later", value: "1")
        await #expect(throws: APIError.adaptationFailed(interceptor: "KeychainAdapter", error: KeychainAdapter.Locked())) {
            try await client(stubs, [KeychainAdapter(), later]).send(TestEndpoint(), as: Empty.self)
        }
        #expect(stubs.requests.isEmpty)
        #expect(later.seen.count == 0, "the adapters after the failing one do not run")
    }

    @Test("An adapter that throws an APIError fails the request with it unchanged")
    func adapterAPIError() async {
        let stubs = StubSession()
        await #expect(throws: APIError.invalidRequest("no tenant selected")) {
            try await client(stubs, [ThrowingAPIErrorAdapter()]).send(TestEndpoint(), as: Empty.self)
        }
        #expect(stubs.requests.isEmpty)
    }

    @Test("Retriers are asked in order until one decides; the later ones are not asked")
    func retriersInOrder() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(500))
        stubs.register(.get, "/items", .status(204))
        let declines = ScriptedRetrier { _, _ in .doNotRetry }
        let retries = ScriptedRetrier { _, _ in .retry }
        let never = ScriptedRetrier { _, _ in .retry }
        _ = try await client(stubs, [declines, retries, never]).send(TestEndpoint(), as: Empty.self)

        #expect(declines.asked.elements.map(\.attempt) == [1])
        #expect(retries.asked.elements.map(\.attempt) == [1])
        #expect(never.asked.count == 0)
        #expect(stubs.requests.count == 2)
    }

    @Test("After retries the caller gets the last attempt's error, and earlier errors are in the context")
    func lastErrorWins() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .status(500))
        let previous = LockedArray<[APIError]>()
        let retrier = ScriptedRetrier { _, context in
            previous.append(context.previousErrors)
            return context.attempt < 2 ? .retry : .doNotRetry
        }
        let error = await client(stubs, [retrier]).fetch(TestEndpoint(), as: Empty.self).failure
        #expect(error?.statusCode == 500)
        #expect(previous.elements.map { $0.map(\.statusCode) } == [[], [503]])
    }

    @Test("fail(_:) ends the request with the given error instead of the attempt's")
    func failDecision() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(401))
        let retrier = ScriptedRetrier { _, _ in .fail(.credentialRefreshFailed(URLError(.notConnectedToInternet))) }
        await #expect(throws: APIError.credentialRefreshFailed(URLError(.notConnectedToInternet))) {
            try await client(stubs, [retrier]).send(TestEndpoint(), as: Empty.self)
        }
        #expect(stubs.requests.count == 1)
    }

    @Test("A cancelled attempt is never offered to the retriers", .timeSensitive)
    func cancellationIsFinal() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}", delay: 60))
        let retrier = ScriptedRetrier { _, _ in .retry }
        let client = client(stubs, [retrier])
        let task = Task { await client.fetch(TestEndpoint(), as: Empty.self) }
        #expect(await eventually { stubs.requests.count == 1 })
        task.cancel()
        #expect(await task.value.failure == .cancelled)
        #expect(retrier.asked.count == 0)
        #expect(stubs.requests.count == 1)
    }

    @Test("Cancelling during a retryAfter wait ends the request at once with .cancelled", .timeSensitive)
    func cancelDuringWait() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        let events = EventLog()
        let client = client(stubs, [ScriptedRetrier { _, _ in .retryAfter(600) }, events])
        let task = Task { await client.fetch(TestEndpoint(), as: Empty.self) }
        #expect(await eventually { events.attempts.count == 1 }, "the first attempt failed and the wait began")
        task.cancel()
        let result = await withWatchdog(seconds: 30) { await task.value }
        #expect(result?.failure == .cancelled)
        #expect(stubs.requests.count == 1, "no second attempt")
        #expect(events.finished.first?.error == .cancelled)
    }

    @Test("A task cancelled before it starts runs no adapter and sends nothing")
    func cancelledBeforeAdapting() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(204))
        let adapter = HeaderAdapter(header: "X-A", value: "1")
        let client = client(stubs, [adapter])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await client.fetch(TestEndpoint(), as: Empty.self)
        }
        #expect(await task.value.failure == .cancelled)
        #expect(adapter.seen.count == 0)
        #expect(stubs.requests.isEmpty)
    }

    @Test("An interceptor that sets the request's timeoutInterval sets the attempt's timeout")
    func adaptedTimeout() async {
        struct Impatient: Interceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.timeoutInterval = 0.1
                return request
            }
        }
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json("{}", delay: 30))
        let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [Impatient()]))
        let started = Date()

        await #expect(throws: APIError.timedOut) { try await client.send(TestEndpoint(), as: Empty.self) }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("The new errors have readable descriptions")
    func errorDescriptions() {
        #expect(
            APIError.adaptationFailed(interceptor: "TokenAdapter", error: KeychainAdapter.Locked()).description
                == "Interceptor TokenAdapter failed to adapt the request, so it was not sent: the keychain is locked")
        #expect(
            APIError.credentialRefreshFailed(APIError.unacceptableStatusCode(400, HTTPResponse(statusCode: 400))).description
                == "Refreshing the credential failed: The server answered 400 Bad Request")
        #expect(APIError.credentialRefreshFailed(URLError(.unknown)).statusCode == nil)
        #expect(APIError.adaptationFailed(interceptor: "A", error: URLError(.unknown)).response == nil)
    }
}

/// The public ways of sending, so one test can run through each.
enum SendStyle: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case fetch, send, completion, fetchWithRequest, sendWithRequest, responseForEndpoint, responseForRequest, responseWithProgress
    case decodedResponse, typedRequest

    var testDescription: String { rawValue }

    func send(_ endpoint: TestEndpoint, with client: NetworkClient) async throws {
        switch self {
        case .fetch:
            _ = try await client.fetch(endpoint, as: Movie.self).get()
        case .send:
            _ = try await client.send(endpoint, as: Movie.self)
        case .completion:
            let result = await withCheckedContinuation { continuation in
                client.fetch(endpoint, as: Movie.self) { continuation.resume(returning: $0) }
            }
            _ = try result.get()
        case .fetchWithRequest:
            _ = try await client.fetch(with: endpoint.urlRequest(), as: Movie.self).get()
        case .sendWithRequest:
            _ = try await client.send(with: endpoint.urlRequest(), as: Movie.self)
        case .responseForEndpoint:
            _ = try await client.response(for: endpoint)
        case .responseForRequest:
            _ = try await client.response(with: endpoint.urlRequest())
        case .responseWithProgress:
            _ = try await client.response(for: endpoint, progress: { _ in })
        case .decodedResponse:
            _ = try await client.response(for: endpoint, as: Movie.self)
        case .typedRequest:
            _ = try await client.send(Request<Movie>(endpoint))
        }
    }
}
