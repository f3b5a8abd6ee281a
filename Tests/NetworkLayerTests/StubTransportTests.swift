import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("StubTransport")
struct StubTransportTests {
    @Test("Routes answer in order and record what was sent, an upload's file included")
    func routesAndRecording() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"Heat"}"#))
        stubs.register(.get, "/items", .status(404))
        let client = NetworkClient(transport: stubs)
        #expect(
            try await client.send(TestEndpoint(task: .requestParameters(urlParameters: ["page": 2])), as: Movie.self)
                == Movie(id: 1, title: "Heat"))
        await #expect(throws: APIError.self) { try await client.send(TestEndpoint(), as: Movie.self) }
        #expect(stubs.requests.first?.query == "page=2")

        let directory = try TemporaryDirectory()
        let file = directory.file("poster.jpg")
        try Data("poster".utf8).write(to: file)
        stubs.register(.put, "/poster", .status(204))
        _ = try await client.send(
            TestEndpoint(path: "/poster", method: .put, task: .uploadFile(file, contentType: "image/jpeg")), as: Empty.self)
        #expect(stubs.requests(.put, "/poster").first?.bodyText == "poster")
    }

    @Test("An unmatched request fails naming it")
    func unmatched() async throws {
        let error = await #expect(throws: APIError.self) {
            try await NetworkClient(transport: StubTransport()).send(TestEndpoint(), as: Empty.self)
        }
        #expect(error?.description.contains("No stub for GET /items") == true)
    }

    @Test("A chunked body streams chunk by chunk")
    func chunked() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .chunked(["a\n", "b\n", "c\n"].map { Data($0.utf8) }))
        var lines: [String] = []
        for try await line in try await NetworkClient(transport: stubs).stream(for: TestEndpoint()).lines { lines.append(line) }
        #expect(lines == ["a", "b", "c"])
    }

    @Test("A delay longer than the timeout fails with .timedOut at the timeout; a shorter one answers", .timeSensitive)
    func delays() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json("{}", delay: 30))
        stubs.register(.get, "/fast", .json("{}", delay: 0.05))
        let client = NetworkClient(transport: stubs)
        let stopwatch = Stopwatch()
        await #expect(throws: APIError.timedOut) { try await client.send(TestEndpoint(timeout: 0.2), as: Empty.self) }
        #expect(stopwatch.seconds >= 0.2 && stopwatch.seconds < 10)
        _ = try await client.send(TestEndpoint(path: "/fast", timeout: 0.2), as: Empty.self)
    }

    @Test("Cancelling a delayed request ends it with .cancelled at once")
    func cancellation() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json("{}", delay: 30))
        let client = NetworkClient(transport: stubs)
        let task = Task { try await client.send(TestEndpoint(), as: Empty.self) }
        #expect(await eventually { !stubs.requests.isEmpty }, "the request reached the stub")
        task.cancel()
        await #expect(throws: APIError.cancelled) { try await task.value }
    }
}
