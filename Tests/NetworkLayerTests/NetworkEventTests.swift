import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Network events")
struct NetworkEventTests {
    @Test("A request emits started, an exchange and an attempt event per attempt, then finished, all with one request ID")
    func eventSequence() async throws {
        let stubs = StubSession()
        stubs.register(.post, "/items", .status(503))
        stubs.register(.post, "/items", .json(#"{"id":7,"title":"Seven"}"#, statusCode: 201))
        let events = EventLog()
        let endpoint = TestEndpoint(method: .post, task: .requestData(Data("12345".utf8), contentType: "text/plain"))
        let movie = try await client(stubs, [ScriptedRetrier { _, _ in .retryAfter(0.001) }, events]).send(endpoint, as: Movie.self)
        #expect(movie.id == 7)

        let all = events.events.elements
        #expect(all.count == 6)
        let exchanges = all.compactMap { event -> ExchangeMetrics? in
            if case .exchangeFinished(let metrics) = event { metrics } else { nil }
        }
        #expect(exchanges.map(\.response.statusCode) == [503, 201])
        #expect(exchanges.map(\.context.attempt) == [1, 2])
        #expect(exchanges.allSatisfy { $0.reachedTransport && $0.context.redirectedFrom.isEmpty })
        guard case .requestStarted(let id, let request) = all.first else {
            Issue.record("the first event is \(String(describing: all.first))")
            return
        }
        #expect(request.url?.path == "/items")
        #expect(all.allSatisfy { $0.requestID == id })

        let attempts = events.attempts
        #expect(attempts.map(\.attempt) == [1, 2])
        #expect(attempts.map(\.statusCode) == [503, 201])
        #expect(attempts.map(\.error?.statusCode) == [503, nil])
        #expect(attempts.map(\.retryDelay) == [0.001, nil])
        #expect(attempts.map(\.bytesSent) == [5, 5])
        #expect(attempts.map(\.bytesReceived) == [0, 24])
        #expect(attempts.allSatisfy { $0.duration >= 0 })

        let finished = try #require(events.finished.first)
        #expect(finished.attempts == 2)
        #expect(finished.error == nil)
        #expect(finished.response?.statusCode == 201)
        #expect(finished.duration >= attempts.map(\.duration).reduce(0, +))
    }

    @Test("A request that fails after retries reports the last error and how many attempts were made")
    func failedRequestMetrics() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .failure(URLError(.networkConnectionLost)))
        let events = EventLog()
        let retrier = ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry }
        let error = await client(stubs, [retrier, events]).fetch(TestEndpoint(), as: Empty.self).failure
        let finished = try #require(events.finished.first)
        #expect(finished.attempts == 3)
        #expect(finished.error == error)
        #expect(finished.response == nil)
        #expect(events.attempts.map(\.retryDelay) == [0, 0, nil])
        #expect(events.attempts.allSatisfy { $0.response == nil && $0.error == .requestFailed(URLError(.networkConnectionLost)) })
    }

    @Test("When an adapter fails, there is no attempt event and the request finishes after 0 attempts")
    func adapterFailureEvents() async throws {
        let stubs = StubSession()
        let events = EventLog()
        _ = await client(stubs, [FailingAdapter(), events]).fetch(TestEndpoint(), as: Empty.self)
        #expect(events.attempts.isEmpty)
        #expect(events.finished.map(\.attempts) == [0])
        #expect(
            events.finished.first?.error
                == .adaptationFailed(interceptor: "FailingAdapter", error: URLError(.userAuthenticationRequired)))
        #expect(stubs.requests.isEmpty)
    }

    @Test("Concurrent requests get distinct IDs, and each one's events share its ID")
    func concurrentIDs() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(204))
        let events = EventLog()
        let client = client(stubs, [events])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { _ = await client.fetch(TestEndpoint(), as: Empty.self) }
            }
        }
        let byID = Dictionary(grouping: events.events.elements, by: \.requestID)
        #expect(byID.count == 50)
        #expect(byID.values.allSatisfy { $0.count == 4 })
    }
}

private struct FailingAdapter: Interceptor {
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        throw URLError(.userAuthenticationRequired)
    }
}
