import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
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

    @Test("Breaking out of the loop ends the transfer and closes the connection", arguments: TransportKind.all)
    func breakClosesConnection(transport: TransportKind) async throws {
        let server = try Self.endlessLines()
        var lines: [String] = []
        for try await line in try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30)).lines {
            lines.append(line)
            if lines.count == 3 { break }
        }
        #expect(lines == [#"{"index":0}"#, #"{"index":1}"#, #"{"index":2}"#])
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test("Dropping a stream without reading it closes the connection", arguments: TransportKind.all)
    func droppedStreamClosesConnection(transport: TransportKind) async throws {
        let server = try Self.endlessLines()
        let stream = try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30))
        #expect(stream.response.statusCode == 200)
        _ = consume stream
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test(
        "Cancelling the reading task ends the stream with .cancelled and closes the connection", .timeSensitive,
        arguments: TransportKind.all)
    func cancellation(transport: TransportKind) async throws {
        let server = try Self.endlessLines()
        let received = Locked(0)
        let task = Task {
            for try await _ in try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30)).lines {
                received.withLock { $0 += 1 }
            }
        }
        #expect(await eventually { received.withLock { $0 } >= 2 })
        task.cancel()
        await #expect(throws: APIError.cancelled) { try await task.value }
        #expect(await eventually { server.closedByClient == 1 }, "the connection was closed")
    }

    @Test(
        "A stream that stalls fails with .timedOut after its idle timeout; one that trickles lives on", .timeSensitive,
        arguments: TransportKind.all)
    func idleTimeout(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Transfer-Encoding": "chunked"])
            let trickles = connection.requestLine.contains("/trickle")
            for index in 0..<14 {
                connection.writeChunk(Data("\(index)\n".utf8))
                Thread.sleep(forTimeInterval: trickles ? 0.3 : 0)
                if !trickles, index == 1 { break }
            }
            if trickles { connection.endChunks() } else { connection.waitUntilClosed() }
        }
        let client = transport.makeClient()
        var stalled: [String] = []
        // The idle clock starts with the request, before its first bytes: at the start of a run on two
        // cores those have taken over 2 s to arrive. 5 s leaves room and still ends a stalled stream.
        await #expect(throws: APIError.timedOut) {
            for try await line in try await client.stream(for: TestEndpoint(base: server.baseURL, path: "/stall", timeout: 5)).lines {
                stalled.append(line)
            }
        }
        #expect(stalled == ["0", "1"])
        var trickled: [String] = []
        for try await line in try await client.stream(for: TestEndpoint(base: server.baseURL, path: "/trickle", timeout: 3)).lines {
            trickled.append(line)
        }
        #expect(trickled == (0..<14).map(String.init), "4.2 s of lines under a 3 s timeout: the timeout is idle time")
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

    @Test("A large body arrives whole and in order", arguments: TransportKind.all)
    func largeBody(transport: TransportKind) async throws {
        // Under the default buffer limit, so that however slowly this reader runs it never falls too far behind.
        let total = 4 * 1024 * 1024
        let server = try Self.patternServer(total: total)
        var received = 0
        var inOrder = true
        for try await chunk in try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30)) {
            inOrder = inOrder && chunk.first == UInt8(received % 251) && chunk.last == UInt8((received + chunk.count - 1) % 251)
            received += chunk.count
        }
        #expect(received == total)
        #expect(inOrder)
    }

    @Test(
        "A reader that falls far behind slows the stream down instead of failing it: every byte comes, in order",
        arguments: TransportKind.all)
    func slowReader(transport: TransportKind) async throws {
        // 64 KiB every 5 ms, about 12 MB/s, for far longer than the test: only the client can end it.
        let server = try Self.patternServer(total: 1024 * 1024 * 1024, pause: 0.005)
        let stream = try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL, timeout: 30), bufferLimit: 1024 * 1024)
        var iterator = stream.makeAsyncIterator()
        var received = try await iterator.next()?.count ?? 0
        // Not reading for a while: the server goes on sending, several times the buffer's high watermark.
        try await Task.sleep(nanoseconds: 500_000_000)
        var inOrder = true
        while received < 12 * 1024 * 1024, let chunk = try await iterator.next() {
            inOrder = inOrder && chunk.first == UInt8(received % 251) && chunk.last == UInt8((received + chunk.count - 1) % 251)
            received += chunk.count
        }
        #expect(received >= 12 * 1024 * 1024, "the stream went on after the reader fell behind")
        #expect(inOrder)
        _ = consume iterator
        #expect(await eventually { server.closedByClient == 1 }, "dropping the stream closed the connection")
    }
}

@Suite("Response streams: lines and events stay within the buffer limit")
struct StreamLineLimitTests {
    /// A server that sends `chunks` 30 ms apart: a reader keeps up, so the stream's unread bytes stay
    /// far below its limit and only a line's or an event's own length can reach it.
    static func trickling(_ chunks: [Data]) throws -> ScriptedServer {
        try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"])
            for chunk in chunks {
                guard connection.writeChunk(chunk) else { return }
                Thread.sleep(forTimeInterval: 0.03)
            }
            connection.endChunks()
        }
    }

    @Test(
        "A line that never ends fails with bufferLimitExceeded instead of growing; the lines before it are read first",
        arguments: TransportKind.all)
    func endlessLine(transport: TransportKind) async throws {
        let x = UInt8(ascii: "x")
        let server = try Self.trickling([Data("a\nb\n".utf8)] + Array(repeating: Data(repeating: x, count: 150), count: 10))
        var iterator = try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL), bufferLimit: 1000).lines
            .makeAsyncIterator()
        // Each read outside #expect, whose closure would read a copy of the iterator.
        var reads: [Result<String?, APIError>] = []
        for _ in 0..<4 { reads.append(await Self.next(&iterator)) }
        #expect(reads == [.success("a"), .success("b"), .failure(.bufferLimitExceeded(1000)), .success(nil)])
    }

    @Test("An event whose data lines never end with a blank line fails with bufferLimitExceeded", arguments: TransportKind.all)
    func endlessEvent(transport: TransportKind) async throws {
        let lines = Data(String(repeating: "data: 0123456789\n", count: 10).utf8)
        let server = try Self.trickling([Data("data: first\n\n".utf8)] + Array(repeating: lines, count: 12))
        var events: [String] = []
        await #expect(throws: APIError.bufferLimitExceeded(1000)) {
            for try await event in try await transport.makeClient().stream(for: TestEndpoint(base: server.baseURL), bufferLimit: 1000)
                .events
            {
                events.append(event.data)
            }
        }
        #expect(events == ["first"])
    }

    private static func next(_ iterator: inout ResponseStream.Lines.Iterator) async -> Result<String?, APIError> {
        do throws(APIError) {
            return .success(try await iterator.next())
        } catch {
            return .failure(error)
        }
    }
}
