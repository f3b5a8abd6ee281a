import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Total deadline", .timeSensitive)
struct DeadlineTests {
    typealias Verb = InterimResponseTests.Verb

    /// Answers a head announcing 1,000 bytes, then drips them, one every 200 ms.
    static func drippingServer() throws -> ScriptedServer {
        try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Type": "application/octet-stream", "Content-Length": "1000"])
            for _ in 0..<1000 {
                guard connection.write(Data("x".utf8)) else { return }
                if connection.waitUntilClosed(timeout: 0.2) { return }
            }
        }
    }

    @Test(
        "A body dripping a byte every 200 ms fails at a deadline of 1 s, though the idle timeout never fires",
        arguments: TransportKind.all, [Verb.send, .upload, .download])
    func drip(transport: TransportKind, verb: Verb) async throws {
        let server = try Self.drippingServer()
        defer { server.stop() }
        let client = NetworkClient(transport: transport.makeTransport(), configuration: ClientConfiguration(timeout: 1, deadline: 1))
        let stopwatch = Stopwatch()
        await #expect(throws: APIError.deadlineExceeded(1)) { try await verb.run(client, TestEndpoint(base: server.baseURL)) }
        // The body takes 200 s; without the deadline only the end of the test run would stop it.
        #expect(stopwatch.seconds >= 1 && stopwatch.seconds < 6, "failed after \(stopwatch.seconds) s")
    }

    @Test("A 102 Processing every 0.5 s fails at a deadline of 2 s", arguments: TransportKind.all, [Verb.send, .upload])
    func processing(transport: TransportKind, verb: Verb) async throws {
        let server = try InterimResponseTests.processingServer()
        defer { server.stop() }
        let client = NetworkClient(transport: transport.makeTransport(), configuration: ClientConfiguration(timeout: 30, deadline: 2))
        let stopwatch = Stopwatch()
        await #expect(throws: APIError.deadlineExceeded(2)) { try await verb.run(client, TestEndpoint(base: server.baseURL)) }
        #expect(stopwatch.seconds >= 2 && stopwatch.seconds < 7, "failed after \(stopwatch.seconds) s")
    }

    @Test("A stream is bounded by the deadline until it is returned; reading it goes on past the deadline", arguments: TransportKind.all)
    func stream(transport: TransportKind) async throws {
        let slow = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"])
            for index in 0..<10 {
                guard connection.writeChunk(Data("\(index)".utf8)) else { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
            connection.endChunks()
        }
        defer { slow.stop() }
        // Four seconds for the head, which a loaded machine may take a while to send.
        let client = NetworkClient(transport: transport.makeTransport(), configuration: ClientConfiguration(timeout: 10, deadline: 4))
        var text = ""
        for try await chunk in try await client.stream(for: TestEndpoint(base: slow.baseURL)) {
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text == "0123456789", "5 s of body under a deadline of 4 s")

        let silent = try SilentServer()
        defer { silent.stop() }
        await #expect(throws: APIError.deadlineExceeded(4)) { try await client.stream(for: TestEndpoint(base: silent.baseURL)) }
    }

    @Test("The deadline covers every attempt and the waits between them, and is never retried")
    func coversRetries() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .status(503))
        let watcher = ScriptedRetrier { _, _ in .doNotRetry }
        let log = EventLog()
        let retries = RetryPolicy(maximumAttempts: 200, baseDelay: 0.1, maximumDelay: 0.1, random: { 1 })
        let client = NetworkClient(
            transport: stubs, configuration: ClientConfiguration(interceptors: [watcher, retries, log], deadline: 4))
        let stopwatch = Stopwatch()
        await #expect(throws: APIError.deadlineExceeded(4)) { try await client.send(TestEndpoint(), as: Empty.self) }
        // 200 attempts 0.1 s apart would take 20 s.
        #expect(stopwatch.seconds >= 4 && stopwatch.seconds < 10, "failed after \(stopwatch.seconds) s")
        #expect(stubs.requests.count >= 2, "retried until the deadline")
        #expect(watcher.asked.elements.allSatisfy { $0.error.statusCode == 503 }, "never asked about the deadline")
        // The deadline passes in an attempt or in the wait after one.
        #expect(log.attempts.allSatisfy { $0.error?.statusCode == 503 || $0.error == .deadlineExceeded(4) })
        #expect(log.finished.map(\.error) == [.deadlineExceeded(4)])
    }

    @Test("An endpoint's deadline overrides the client's, .infinity lifts it, and a request built by hand gets the client's")
    func endpointOverridesClient() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json("{}", delay: 0.6))
        let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(deadline: 0.2))
        await #expect(throws: APIError.deadlineExceeded(0.2)) { try await client.send(TestEndpoint(), as: Empty.self) }
        #expect(!Task.isCancelled, "the deadline cancels the call, never its caller")
        _ = try await client.send(TestEndpoint(deadline: 5), as: Empty.self)
        _ = try await client.send(TestEndpoint(deadline: .infinity), as: Empty.self)
        let request = try TestEndpoint().urlRequest()
        await #expect(throws: APIError.deadlineExceeded(0.2)) { try await client.send(with: request, as: Empty.self) }
        let noDeadline = NetworkClient(transport: stubs)
        _ = try await noDeadline.send(TestEndpoint(), as: Empty.self)
        await #expect(throws: APIError.deadlineExceeded(0.2)) { try await noDeadline.send(TestEndpoint(deadline: 0.2), as: Empty.self) }
        #expect(Request<Empty>(TestEndpoint(deadline: 3)).options.deadline == 3)
    }

    @Test("The caller's own cancellation is still .cancelled under a deadline", arguments: ["without interceptors", "with interceptors"])
    func callerCancels(path: String) async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json("{}", delay: 20))
        let client = NetworkClient(
            transport: stubs,
            configuration: ClientConfiguration(interceptors: path == "with interceptors" ? [EventLog()] : [], deadline: 10))
        let call = Task { try await client.send(TestEndpoint(), as: Empty.self) }
        #expect(await eventually { !stubs.requests.isEmpty })
        call.cancel()
        await #expect(throws: APIError.cancelled) { try await call.value }
    }

    @Test(
        "A deadline that is not a positive number of seconds fails before anything is sent",
        arguments: [0, -1, Double.nan, -Double.infinity])
    func invalidDeadline(seconds: Double) async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json("{}"))
        for client in [
            NetworkClient(transport: stubs, configuration: ClientConfiguration(deadline: seconds)),
            NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [EventLog()])),
        ] {
            let error = await client.fetch(TestEndpoint(deadline: seconds), as: Empty.self).failure
            #expect(error?.invalidRequestReason?.hasPrefix("deadline must be a positive number of seconds") == true)
        }
        #expect(stubs.requests.isEmpty)
    }
}
