import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Response streams")
struct ResponseStreamTests {
    /// A server that sends a line every 20 ms, for as long as the client listens (at most 60 s).
    static func endlessLines() throws -> ScriptedServer {
        try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Type": "application/x-ndjson", "Transfer-Encoding": "chunked"])
            for index in 0..<3000 {
                guard connection.writeChunk(Data("{\"index\":\(index)}\n".utf8)) else { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            connection.waitUntilClosed(timeout: 1)
        }
    }

    @Test("A rejected status fails before the first element, with the body in the error")
    func statusBeforeFirstElement() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json(#"{"error":"no such feed"}"#, statusCode: 404))
        let error = await #expect(throws: APIError.self) { try await stubbed.client.stream(for: TestEndpoint()) }
        #expect(error?.statusCode == 404)
        #expect(error?.response?.text == #"{"error":"no such feed"}"#)
    }

    @Test("The client's acceptable status codes decide")
    func acceptableStatusCodes() async throws {
        let stubbed = StubbedClient(acceptableStatusCodes: [200, 404])
        stubbed.stubs.register(.get, "/items", .text("gone", statusCode: 404))
        var lines: [String] = []
        for try await line in try await stubbed.client.stream(for: TestEndpoint()).lines { lines.append(line) }
        #expect(lines == ["gone"])
    }

    @Test("Breaking out of the loop ends the transfer and closes the connection")
    func breakClosesConnection() async throws {
        let server = try Self.endlessLines()
        var lines: [String] = []
        for try await line in try await NetworkClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30)).lines {
            lines.append(line)
            if lines.count == 3 { break }
        }
        #expect(lines == [#"{"index":0}"#, #"{"index":1}"#, #"{"index":2}"#])
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test("Dropping a stream without reading it closes the connection")
    func droppedStreamClosesConnection() async throws {
        let server = try Self.endlessLines()
        let stream = try await NetworkClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30))
        #expect(stream.response.statusCode == 200)
        _ = consume stream
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test("Cancelling the reading task ends the stream with .cancelled and closes the connection")
    func cancellation() async throws {
        let server = try Self.endlessLines()
        let received = Locked(0)
        let task = Task {
            for try await _ in try await NetworkClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30)).lines {
                received.withLock { $0 += 1 }
            }
        }
        #expect(await eventually { received.withLock { $0 } >= 2 })
        task.cancel()
        await #expect(throws: APIError.cancelled) { try await task.value }
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test("A stream that stalls fails with .timedOut after its idle timeout; one that trickles lives on")
    func idleTimeout() async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Transfer-Encoding": "chunked"])
            let trickles = connection.requestLine.contains("/trickle")
            for index in 0..<8 {
                connection.writeChunk(Data("\(index)\n".utf8))
                Thread.sleep(forTimeInterval: trickles ? 0.3 : 0)
                if !trickles, index == 1 { break }
            }
            if trickles { connection.endChunks() } else { connection.waitUntilClosed() }
        }
        let client = NetworkClient()
        var stalled: [String] = []
        await #expect(throws: APIError.timedOut) {
            for try await line in try await client.stream(for: TestEndpoint(base: server.baseURL, path: "/stall", timeout: 1.2)).lines {
                stalled.append(line)
            }
        }
        #expect(stalled == ["0", "1"])
        var trickled: [String] = []
        for try await line in try await client.stream(for: TestEndpoint(base: server.baseURL, path: "/trickle", timeout: 1.2)).lines {
            trickled.append(line)
        }
        #expect(trickled == ["0", "1", "2", "3", "4", "5", "6", "7"], "2.4 s of lines under a 1.2 s timeout: the timeout is idle time")
    }

    /// A server that sends `total` bytes of pattern in 64 KiB blocks, pausing `pause` seconds between them.
    static func patternServer(total: Int, pause: TimeInterval = 0) throws -> ScriptedServer {
        try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "\(total)"])
            let block = Pattern.data(count: 251 * 256)
            var sent = 0
            while sent < total {
                let count = min(block.count, total - sent)
                guard connection.write(block.prefix(count)) else {
                    connection.waitUntilClosed(timeout: 5)
                    return
                }
                sent += count
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            }
        }
    }

    @Test("A large body arrives whole and in order")
    func largeBody() async throws {
        // Under the default buffer limit, so that however slowly this reader runs it never falls too far behind.
        let total = 4 * 1024 * 1024
        let server = try Self.patternServer(total: total)
        var received = 0
        var inOrder = true
        for try await chunk in try await NetworkClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30)) {
            inOrder = inOrder && chunk.first == UInt8(received % 251) && chunk.last == UInt8((received + chunk.count - 1) % 251)
            received += chunk.count
        }
        #expect(received == total)
        #expect(inOrder)
    }

    @Test("A reader that falls more than bufferLimit behind ends the stream with bufferLimitExceeded, and the connection closes")
    func boundedBuffer() async throws {
        let limit = 1024 * 1024
        // 64 KiB every 5 ms, about 12 MB/s, for far longer than the test: only the client can end it.
        let server = try Self.patternServer(total: 1024 * 1024 * 1024, pause: 0.005)
        let stream = try await NetworkClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30), bufferLimit: limit)
        var iterator = stream.makeAsyncIterator()
        var received = try await iterator.next()?.count ?? 0
        // Not reading for a while: the server goes on sending, and the buffer fills past its limit.
        try await Task.sleep(for: .milliseconds(500))
        await #expect(throws: APIError.bufferLimitExceeded(limit)) {
            while let chunk = try await iterator.next() { received += chunk.count }
        }
        #expect(received <= 2 * limit, "what was buffered is delivered, and no more: \(received) bytes")

        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }
}

@Suite("Response streams: lines and events stay within the buffer limit")
struct StreamLineLimitTests {
    @Test("A line that never ends fails with bufferLimitExceeded instead of growing; shorter lines pass")
    func endlessLine() async throws {
        let stubbed = StubbedClient()
        let chunks = [Data("short line\n".utf8)] + Array(repeating: Data(repeating: UInt8(ascii: "x"), count: 500), count: 10)
        stubbed.stubs.register(.get, "/items", .chunked(chunks))
        var lines: [String] = []
        await #expect(throws: APIError.bufferLimitExceeded(1000)) {
            for try await line in try await stubbed.client.stream(for: TestEndpoint(), bufferLimit: 1000).lines { lines.append(line) }
        }
        #expect(lines == ["short line"])
    }

    @Test("An event whose data lines never end with a blank line fails with bufferLimitExceeded")
    func endlessEvent() async throws {
        let stubbed = StubbedClient()
        let chunks = [Data("data: first\n\n".utf8)] + Array(repeating: Data("data: 0123456789\n".utf8), count: 200)
        stubbed.stubs.register(.get, "/items", .chunked(chunks))
        var events: [String] = []
        await #expect(throws: APIError.bufferLimitExceeded(1000)) {
            for try await event in try await stubbed.client.stream(for: TestEndpoint(), bufferLimit: 1000).events {
                events.append(event.data)
            }
        }
        #expect(events == ["first"])
    }
}
