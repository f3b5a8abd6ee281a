import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Cancellation", .timeSensitive)
struct CancellationTests {
    /// A response that would take a minute: only cancellation can end the request early.
    static let slow = StubResponse.json("{}", delay: 60)

    @Test("Cancelling the Swift task ends an in-flight request with .cancelled at once")
    func taskCancellation() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", Self.slow)
        let started = Date()
        let task = Task { await stubbed.client.fetch(TestEndpoint(), as: Empty.self) }
        #expect(await eventually { stubbed.stubs.requests.count == 1 }, "the request reached the server")
        task.cancel()
        #expect(await task.value.failure == .cancelled)
        #expect(Date().timeIntervalSince(started) < 30, "ended by cancellation, not by the 60 s answer")
    }

    @Test("A task cancelled before it starts sends nothing")
    func cancelledBeforeStart() async {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json("{}"))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await stubbed.client.fetch(TestEndpoint(), as: Empty.self)
        }
        #expect(await task.value.failure == .cancelled)
        #expect(stubbed.stubs.requests.isEmpty)
    }

    @Test("send throws .cancelled when its task is cancelled")
    func sendCancellation() async {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", Self.slow)
        let task = Task { try await stubbed.client.send(TestEndpoint(), as: Empty.self) }
        _ = await eventually { stubbed.stubs.requests.count == 1 }
        task.cancel()
        await #expect(throws: APIError.cancelled) { try await task.value }
    }

    @Test("Hundreds of in-flight stubbed requests cancelled together all end with .cancelled")
    func massCancellationStubbed() async {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", Self.slow)
        let count = 300
        let results = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<count {
                group.addTask { await stubbed.client.fetch(TestEndpoint(), as: Empty.self).failure }
            }
            _ = await eventually { stubbed.stubs.requests.count == count }
            group.cancelAll()
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }
        #expect(results.count == count)
        #expect(results.allSatisfy { $0 == .cancelled })
    }

    @Test("Over real sockets, a cancelled request closes its connection", arguments: TransportKind.all)
    func cancellationClosesConnection(transport: TransportKind) async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = transport.makeClient()
        let task = Task { await client.fetch(TestEndpoint(base: server.baseURL, timeout: 60), as: Empty.self) }
        #expect(await eventually { server.requestCount == 1 }, "the request reached the server")
        #expect(server.openCount == 1)
        task.cancel()
        #expect(await task.value.failure == .cancelled)
        #expect(await eventually { server.openCount == 0 }, "the connection was closed, not left running")
    }

    @Test("Over real sockets, 200 in-flight requests cancelled together all end with .cancelled, promptly", arguments: TransportKind.all)
    func massCancellationOverSockets(transport: TransportKind) async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let client = transport.makeClient()
        let count = 200
        let started = Date()
        let results = await withTaskGroup(of: APIError?.self) { group in
            for index in 0..<count {
                group.addTask {
                    let endpoint = TestEndpoint(base: server.baseURL, path: "/slow/\(index)", timeout: 60)
                    return await client.fetch(endpoint, as: Empty.self).failure
                }
            }
            // A few connections per host: the rest wait in the transport's queue, in flight all the same.
            _ = await eventually { server.requestCount >= transport.connectionsPerHost }
            group.cancelAll()
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }
        #expect(results.count == count)
        #expect(results.allSatisfy { $0 == .cancelled })
        #expect(Date().timeIntervalSince(started) < 30, "ended by cancellation, not by the 60 s timeout")
        #expect(await eventually { server.openRequestCount == 0 }, "every connection that carried a request was closed")
    }
}
