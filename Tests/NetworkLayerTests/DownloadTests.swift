import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Downloads")
struct DownloadTests {
    @Test("The body is written to the destination, with its status, headers and size")
    func writesFile() async throws {
        let stubbed = StubbedClient()
        let body = Pattern.data(count: 100_000)
        stubbed.stubs.register(
            .get, "/items",
            .chunked([body.prefix(30_000), body.dropFirst(30_000)], headers: ["Content-Type": "application/octet-stream", "ETag": "v1"]))
        let directory = try TemporaryDirectory()
        let destination = directory.file("nested/dir/movie.bin")
        let log = ProgressLog()
        let file = try await stubbed.client.download(for: TestEndpoint(), to: destination, progress: log.handler)
        #expect(file.fileURL == destination)
        #expect(file.byteCount == 100_000)
        #expect(file.response.statusCode == 200)
        #expect(file.response.headers["ETag"] == "v1")
        #expect(try Data(contentsOf: destination) == body)
        #expect(log.isMonotonic)
        #expect(log.all.last == TransferProgress(completedBytes: 100_000, expectedBytes: 100_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination.deletingLastPathComponent().path) == ["movie.bin"])
    }

    @Test("Without a destination the file goes to the temporary directory, and is the caller's")
    func temporaryDestination() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .text("hello"))
        let file = try await stubbed.client.download(for: TestEndpoint())
        defer { try? FileManager.default.removeItem(at: file.fileURL) }
        #expect(file.fileURL.deletingLastPathComponent().standardizedFileURL == FileManager.default.temporaryDirectory.standardizedFileURL)
        #expect(try String(contentsOf: file.fileURL, encoding: .utf8) == "hello")
    }

    @Test("An empty body gives an empty file")
    func emptyBody() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .status(204))
        let directory = try TemporaryDirectory()
        let file = try await stubbed.client.download(for: TestEndpoint(), to: directory.file("empty"))
        #expect(file.byteCount == 0)
        #expect(try Data(contentsOf: file.fileURL).isEmpty)
    }

    @Test("A rejected status writes no file, keeps an existing one, and carries the body in the error")
    func rejectedStatus() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json(#"{"status_message":"not found"}"#, statusCode: 404))
        let directory = try TemporaryDirectory()
        let destination = directory.file("movie.bin")
        try Data("previous".utf8).write(to: destination)
        let error = await #expect(throws: APIError.self) {
            try await stubbed.client.download(for: TestEndpoint(), to: destination)
        }
        #expect(error?.statusCode == 404)
        #expect(error?.response?.text == #"{"status_message":"not found"}"#)
        #expect(directory.contents == ["movie.bin"], "no partial file left")
        #expect(try String(contentsOf: destination, encoding: .utf8) == "previous")
    }

    @Test("A complete download replaces an existing file")
    func replacesFile() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .text("new"))
        let directory = try TemporaryDirectory()
        let destination = directory.file("movie.bin")
        try Data("previous, longer".utf8).write(to: destination)
        _ = try await stubbed.client.download(for: TestEndpoint(), to: destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new")
        #expect(directory.contents == ["movie.bin"])
    }

    @Test("A transport failure leaves no file")
    func transportFailure() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .failure(URLError(.networkConnectionLost)))
        let directory = try TemporaryDirectory()
        let error = await #expect(throws: APIError.self) {
            try await stubbed.client.download(for: TestEndpoint(), to: directory.file("movie.bin"))
        }
        #expect(error == .requestFailed(URLError(.networkConnectionLost)))
        #expect(directory.contents.isEmpty)
    }

    @Test("Cancelling mid-body deletes the partial file and closes the connection", .timeSensitive, arguments: TransportKind.all)
    func cancellationMidBody(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "\(10 * 1024 * 1024)"])
            connection.write(Pattern.data(count: 1024 * 1024))
            connection.waitUntilClosed()
        }
        let directory = try TemporaryDirectory()
        let log = ProgressLog()
        let client = transport.makeClient()
        let task = Task {
            try await client.download(
                for: TestEndpoint(base: server.baseURL, timeout: 60), to: directory.file("big.bin"), progress: log.handler)
        }
        #expect(await eventually { (log.all.last?.completedBytes ?? 0) >= 512 * 1024 }, "part of the body arrived")
        #expect(directory.contents.count == 1, "a partial file is being written")
        task.cancel()
        await #expect(throws: APIError.cancelled) { try await task.value }
        #expect(directory.contents.isEmpty, "the partial file is gone")
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test(
        "A connection lost mid-body fails the download and leaves no file: no transport sends it again into the same body",
        arguments: TransportKind.all)
    func connectionLostMidBody(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "200000"])
            connection.write(Pattern.data(count: 80_000))
        }
        let directory = try TemporaryDirectory()
        let error = await #expect(throws: APIError.self) {
            try await transport.makeClient().download(for: TestEndpoint(base: server.baseURL), to: directory.file("x"))
        }
        guard case .requestFailed(let urlError)? = error else {
            Issue.record("expected a lost connection, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
        #expect(server.accepted == 1, "sent once")
        #expect(directory.contents.isEmpty)
    }

    @Test("A download that stalls times out after its idle timeout and leaves no file", .timeSensitive, arguments: TransportKind.all)
    func stallTimesOut(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "1000"])
            connection.write(Pattern.data(count: 100))
            connection.waitUntilClosed()
        }
        let directory = try TemporaryDirectory()
        let stopwatch = Stopwatch()
        // Long enough that even a loaded machine has connected before it passes: the wait to start counts.
        await #expect(throws: APIError.timedOut) {
            try await transport.makeClient().download(for: TestEndpoint(base: server.baseURL, timeout: 2), to: directory.file("x"))
        }
        #expect(stopwatch.seconds < 20)
        #expect(directory.contents.isEmpty)
        #expect(server.accepted == 1)
        #expect(await eventually(timeout: 20) { server.closedByClient == 1 })
    }

    @Test("The timeout is an idle timeout: a download that keeps trickling outlives it", .timeSensitive, arguments: TransportKind.all)
    func trickleOutlivesTimeout(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "14"])
            for index in 0..<14 {
                Thread.sleep(forTimeInterval: 0.3)
                connection.write(Pattern.data(count: 1, from: index))
            }
        }
        let directory = try TemporaryDirectory()
        // 14 × 0.3 s is 4.2 s, past the timeout; no gap between bytes comes near it, even on a loaded machine.
        let file = try await transport.makeClient().download(for: TestEndpoint(base: server.baseURL, timeout: 3), to: directory.file("x"))
        #expect(try Data(contentsOf: file.fileURL) == Pattern.data(count: 14))
    }
}
