import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Timeouts over real sockets", .timeSensitive)
struct TimeoutTests {
    @Test(
        "Without an endpoint timeout, the client's timeout applies (ClientConfiguration.timeout)", arguments: TransportKind.all
    )
    func clientTimeout(transport: TransportKind) async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = transport.makeClient(timeout: 1)
        let started = Date()
        let result = await client.fetch(TestEndpoint(base: server.baseURL), as: Empty.self)
        #expect(result.failure == .timedOut)
        #expect(Date().timeIntervalSince(started) < 30, "the client's 1 s, not the request default of 60 s")
    }

    @Test("A sub-second endpoint timeout never fires before its time", arguments: TransportKind.all)
    func subSecondTimeout(transport: TransportKind) async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let started = Date()
        let result = await transport.makeClient().fetch(TestEndpoint(base: server.baseURL, timeout: 0.5), as: Empty.self)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.failure == .timedOut)
        #expect(elapsed >= 0.5, "fired after \(elapsed) s")
        #expect(elapsed < 30)
    }

    @Test("A stub that answers late times out at the endpoint's timeout: the deadline is the library's, not the protocol's")
    func stubDeadline() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json("{}", delay: 20))
        let stopwatch = Stopwatch()
        let result = await stubbed.client.fetch(TestEndpoint(timeout: 0.3), as: Empty.self)
        let elapsed = stopwatch.seconds
        #expect(result.failure == .timedOut)
        #expect(elapsed >= 0.3)
        #expect(elapsed < 10, "the stub answers at 20 s; URLSession applies no timeout to custom protocols")
    }

    @Test("Deadlines of many concurrent requests each fire at their own time, whatever order they were set in")
    func manyDeadlines() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/slow", .json("{}", delay: 20))
        stubbed.stubs.register(.get, "/fast", .json("{}"))
        // Set in an order that is neither rising nor falling. Had the later-set, earlier deadlines not
        // moved the timer forward, the 0.25 s ones would fire with the first, 2.5 s late.
        let timeouts: [Double] = (0..<60).map { [2.75, 0.25, 1.5][$0 % 3] }
        let outcomes = await withTaskGroup(of: (timeout: Double, error: APIError?, elapsed: Double)?.self) { group in
            for (index, timeout) in timeouts.enumerated() {
                group.addTask {
                    // Each from its own start: the first request may take a while to reach the stub on a loaded machine.
                    let stopwatch = Stopwatch()
                    let result = await stubbed.client.fetch(TestEndpoint(path: "/slow", timeout: timeout), as: Empty.self)
                    return (timeout, result.failure, stopwatch.seconds)
                }
                if index == 0 {
                    // The latest deadline is set first, so the earlier ones must move the timer forward.
                    // Bounded: on a starved machine the first request can time out before it reaches the stub.
                    _ = await eventually { !stubbed.stubs.requests(.get, "/slow").isEmpty }
                }
                // Requests that finish at once leave forgotten deadlines among the live ones, earlier and later.
                group.addTask {
                    _ = await stubbed.client.fetch(TestEndpoint(path: "/fast", timeout: 0.1 + Double(index) / 20), as: Empty.self)
                    return nil
                }
            }
            var outcomes: [(timeout: Double, error: APIError?, elapsed: Double)] = []
            for await case let outcome? in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 60)
        #expect(outcomes.allSatisfy { $0.error == .timedOut })
        #expect(outcomes.allSatisfy { $0.elapsed >= $0.timeout }, "no deadline fired early")
        // Each on time, within 1.5 s: a fully loaded two-core machine running the whole suite was
        // seen to lag by up to 1.1 s, and a timer that was not moved forward lags by 2.5 s.
        let late = outcomes.filter { $0.elapsed >= $0.timeout + 1.5 }
        #expect(late.isEmpty, "\(late.count) fired late, the first \(late.first.map { "\($0.timeout) s after \($0.elapsed)" } ?? "")")
    }

    @Test("A stub that answers late times out at the client's timeout when the endpoint sets none")
    func stubClientDeadline() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}", delay: 20))
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(timeout: 0.3, callbackQueue: DispatchQueue(label: "tests.callback")))
        let stopwatch = Stopwatch()
        let result = await client.fetch(TestEndpoint(), as: Empty.self)
        #expect(result.failure == .timedOut)
        #expect(stopwatch.seconds < 10)
    }

    @Test("An answer before the deadline is not cut off, and a timed-out exchange does not leak into the next")
    func answerBeforeDeadline() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json(#"{"id":1,"title":"Heat"}"#, delay: 0.05))
        let movie = try await stubbed.client.send(TestEndpoint(timeout: 5), as: Movie.self)
        #expect(movie == Movie(id: 1, title: "Heat"))
        #expect(stubbed.stubs.requests.count == 1)
    }
}
