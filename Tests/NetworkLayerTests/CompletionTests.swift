import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects completion calls together with the queue each arrived on.
final class CompletionRecorder<Value: Sendable>: Sendable {
    let key = DispatchSpecificKey<String>()
    private let calls = LockedArray<(result: Result<Value, APIError>, queue: String?)>()

    func record(_ result: Result<Value, APIError>) {
        calls.append((result, DispatchQueue.getSpecific(key: key)))
    }

    var results: [Result<Value, APIError>] { calls.elements.map(\.result) }
    var queues: [String?] { calls.elements.map(\.queue) }
    var count: Int { calls.count }
}

/// Returns once everything queued on `queue` so far has run: a second completion sent along with the
/// first would have been recorded by then. A signal from the queue itself, where a fixed sleep would
/// depend on the machine's speed.
func drain(_ queue: DispatchQueue) async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
}

@Suite("Completion handlers")
struct CompletionTests {
    private func client(_ stubs: StubSession, queue: DispatchQueue) -> NetworkClient {
        NetworkClient(transport: URLSessionTransport(session: stubs.session), configuration: ClientConfiguration(callbackQueue: queue))
    }

    @Test("The completion is called exactly once, on the callback queue, with the decoded value")
    func success() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json(#"{"id":5,"title":"E"}"#))
        let recorder = CompletionRecorder<Movie>()
        let queue = DispatchQueue(label: "callbacks")
        queue.setSpecific(key: recorder.key, value: "callbacks")
        client(stubs, queue: queue).fetch(TestEndpoint(), as: Movie.self) { recorder.record($0) }
        #expect(await eventually { recorder.count == 1 })
        await drain(queue)
        #expect(recorder.count == 1)
        #expect(try recorder.results.first?.get() == Movie(id: 5, title: "E"))
        #expect(recorder.queues == ["callbacks"])
    }

    @Test("By default the completion runs on the main queue")
    func mainQueueByDefault() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}"))
        let recorder = CompletionRecorder<Empty>()
        DispatchQueue.main.setSpecific(key: recorder.key, value: "main")
        defer { DispatchQueue.main.setSpecific(key: recorder.key, value: nil) }
        MinimalClient(session: stubs.session).fetch(TestEndpoint(), as: Empty.self) { recorder.record($0) }
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.queues == ["main"])
    }

    @Test("Cancelling the handle completes with .cancelled, once")
    func handleCancellation() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}", delay: 60))
        let recorder = CompletionRecorder<Empty>()
        let queue = DispatchQueue(label: "callbacks")
        queue.setSpecific(key: recorder.key, value: "callbacks")
        let handle = client(stubs, queue: queue).fetch(TestEndpoint(), as: Empty.self) { recorder.record($0) }
        #expect(await eventually { stubs.requests.count == 1 })
        #expect(!handle.isCancelled)
        handle.cancel()
        #expect(handle.isCancelled)
        #expect(await eventually { recorder.count == 1 })
        handle.cancel()
        await drain(queue)
        #expect(recorder.count == 1)
        #expect(recorder.results.first?.failure == .cancelled)
        #expect(recorder.queues == ["callbacks"])
    }

    @Test("Cancelling at once, before the request starts, still completes once with .cancelled")
    func immediateCancellation() async {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}", delay: 60))
        let recorder = CompletionRecorder<Empty>()
        let handle = client(stubs, queue: DispatchQueue(label: "callbacks")).fetch(TestEndpoint(), as: Empty.self) {
            recorder.record($0)
        }
        handle.cancel()
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.results.first?.failure == .cancelled)
    }

    @Test("A request that cannot be built completes with the build error on the callback queue")
    func buildFailure() async {
        let stubs = StubSession()
        let recorder = CompletionRecorder<Empty>()
        let queue = DispatchQueue(label: "callbacks")
        queue.setSpecific(key: recorder.key, value: "callbacks")
        client(stubs, queue: queue).fetch(TestEndpoint(base: "nope"), as: Empty.self) { recorder.record($0) }
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.results.first?.failure == .invalidURL("nope"))
        #expect(recorder.queues == ["callbacks"])
        #expect(stubs.requests.isEmpty)
    }
}
