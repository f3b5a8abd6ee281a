import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

/// Lines, NDJSON and Server-Sent Events parsed from bodies delivered in pieces by a stub: the
/// whole path (session, transfer, stream, parser) sees the same bytes cut at every boundary.
@Suite("Stream parsing across chunk boundaries")
struct StreamParsingTests {
    /// A Server-Sent Events stream with every feature the format has, and its events.
    static let eventStream = Data(
        (": comment\n\n" + "data: first\n\n" + "event: update\nid: 1\ndata: {\"a\":1}\n\n"
            + "data: line one\r\ndata: line two\r\n\r\n" + "retry: 2500\rid: 2\rdata: cr endings\r\r"
            + "event: done\ndata\n\n").utf8)
    static let events = [
        ServerSentEvent(data: "first"),
        ServerSentEvent(event: "update", data: #"{"a":1}"#, id: "1"),
        ServerSentEvent(data: "line one\nline two", id: "1"),
        ServerSentEvent(data: "cr endings", id: "2", retry: 2500),
        ServerSentEvent(event: "done", data: "", id: "2", retry: 2500),
    ]

    /// One client over one stub session, serving each body under its own path.
    struct Streams {
        let stubbed = StubbedClient()
        let counter = Locked(0)

        func open(_ chunks: [Data], headers: HTTPHeaders = [:]) async throws -> ResponseStream {
            let path = "/stream/\(counter.withLock { $0 += 1; return $0 })"
            stubbed.stubs.register(.get, path, .chunked(chunks, headers: headers))
            return try await stubbed.client.stream(for: TestEndpoint(path: path))
        }
    }

    /// `data` repeated once for every position inside it, copy `i` delivered in two chunks cut at
    /// byte `i`, then once more a byte per chunk: one response that puts a chunk boundary at every
    /// position of the text, for one request instead of one per position.
    static func everySplit(of data: Data) -> (chunks: [Data], copies: Int) {
        let halves = (1..<data.count).flatMap { [data.prefix($0), data.dropFirst($0)] }
        return (halves + data.map { Data([$0]) }, data.count)
    }

    @Test("Server-Sent Events parse the same wherever the chunks are cut")
    func eventsAtEveryBoundary() async throws {
        let (chunks, copies) = Self.everySplit(of: Self.eventStream)
        var events: [ServerSentEvent] = []
        for try await event in try await Streams().open(chunks).events { events.append(event) }
        // The reconnection time and the last event ID carry over from one copy into the next: in
        // later copies every event has the retry, and the first one the previous copy's last ID.
        var carried = Self.events.map { event in
            var event = event
            event.retry = 2500
            return event
        }
        carried[0].id = "2"
        #expect(events.count == Self.events.count * copies)
        #expect(Array(events.prefix(Self.events.count)) == Self.events)
        for copy in 1..<copies {
            let slice = Array(events.dropFirst(copy * Self.events.count).prefix(Self.events.count))
            #expect(slice == carried, "copy \(copy)")
        }
    }

    @Test("An event the stream ends in the middle of is dropped")
    func incompleteEvent() async throws {
        var events: [ServerSentEvent] = []
        let stream = Data("data: kept\n\ndata: dropped, the stream ends before its blank line\n".utf8)
        for try await event in try await Streams().open([stream]).events { events.append(event) }
        #expect(events == [ServerSentEvent(data: "kept")])
    }

    @Test("Lines end at LF, CRLF or CR wherever the chunks are cut")
    func linesAtEveryBoundary() async throws {
        let body = Data("one\ntwo\r\nthree\rfour\r\n\r\nsix é\n".utf8)
        let expected = ["one", "two", "three", "four", "", "six é"]
        let (chunks, copies) = Self.everySplit(of: body)
        var lines: [String] = []
        for try await line in try await Streams().open(chunks).lines { lines.append(line) }
        #expect(lines == Array(Array(repeating: expected, count: copies).joined()))
    }

    @Test("A last line needs no line ending, and a CR at the end of a chunk waits to see if LF follows")
    func lastLineAndSplitCRLF() async throws {
        var lines: [String] = []
        let chunks = [Data("a\r".utf8), Data("\nb\r".utf8), Data("\r".utf8), Data("last".utf8)]
        for try await line in try await Streams().open(chunks).lines { lines.append(line) }
        #expect(lines == ["a", "b", "", "last"])
    }

    struct Item: Decodable, Equatable {
        let index: Int
        let name: String
    }

    @Test("NDJSON lines decode to values wherever the chunks are cut, blank lines skipped")
    func jsonLinesAtEveryBoundary() async throws {
        let body = Data("{\"index\":0,\"name\":\"a\"}\n\n{\"index\":1,\"name\":\"é\"}\r\n  \n{\"index\":2,\"name\":\"c\"}\n".utf8)
        let expected = [Item(index: 0, name: "a"), Item(index: 1, name: "é"), Item(index: 2, name: "c")]
        let (chunks, copies) = Self.everySplit(of: body)
        var items: [Item] = []
        for try await item in try await Streams().open(chunks).lines(as: Item.self) { items.append(item) }
        #expect(items == Array(Array(repeating: expected, count: copies).joined()))
    }

    @Test("A byte order mark at the very start is dropped wherever the chunks are cut; one later is kept")
    func byteOrderMark() async throws {
        let body = Data([0xEF, 0xBB, 0xBF]) + Data("data: a\n\ndata: \u{FEFF}b\n\n".utf8)
        // Only the start of a stream may carry the mark, so each cut needs a stream of its own here.
        let streams = Streams()
        for cut in 1..<6 {
            var events: [ServerSentEvent] = []
            for try await event in try await streams.open([body.prefix(cut), body.dropFirst(cut)]).events { events.append(event) }
            #expect(events.map(\.data) == ["a", "\u{FEFF}b"], "cut at \(cut)")
        }
    }

    @Test("A line that does not decode ends the stream with decodingFailed, naming the line")
    func undecodableLine() async throws {
        let streams = Streams()
        let stream = try await streams.open([
            Data("{\"index\":0,\"name\":\"a\"}\n\n{\"index\":\"one\"}\n{\"index\":2,\"name\":\"c\"}\n".utf8)
        ])
        var items: [Item] = []
        let error = await #expect(throws: APIError.self) {
            for try await item in stream.lines(as: Item.self) { items.append(item) }
        }
        #expect(items == [Item(index: 0, name: "a")])
        guard case .decodingFailed(let reason, let body, _)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("(line 3)"))
        #expect(reason.contains("Item"))
        #expect(body == Data("{\"index\":\"one\"}".utf8))
    }

    @Test(
        "Server-Sent Events follow the WHATWG field rules",
        arguments: [
            ("data:no space\n\n", [ServerSentEvent(data: "no space")]),
            ("data:  two spaces\n\n", [ServerSentEvent(data: " two spaces")]),
            ("data: a\ndata:\ndata: b\n\n", [ServerSentEvent(data: "a\n\nb")]),
            ("event: only a type\n\n", []),
            ("unknown: x\ndata: kept\n\n", [ServerSentEvent(data: "kept")]),
            ("id: a\u{0}b\ndata: x\n\n", [ServerSentEvent(data: "x")]),
            ("id: 7\ndata: x\n\nid\ndata: y\n\n", [ServerSentEvent(data: "x", id: "7"), ServerSentEvent(data: "y")]),
            ("retry: 10s\ndata: x\n\nretry: 300\ndata: y\n\n", [ServerSentEvent(data: "x"), ServerSentEvent(data: "y", retry: 300)]),
            ("event: a\n\ndata: x\n\n", [ServerSentEvent(data: "x")]),
            (":only comments\n:\n\n", []),
        ])
    func fieldRules(stream: String, expected: [ServerSentEvent]) async throws {
        var events: [ServerSentEvent] = []
        for try await event in try await Streams().open([Data(stream.utf8)]).events { events.append(event) }
        #expect(events == expected)
    }

    @Test("The chunks arrive as the transport delivered them, and the response is there before them")
    func chunks() async throws {
        let streams = Streams()
        let stream = try await streams.open([Data("ab".utf8), Data("c".utf8)], headers: ["Content-Type": "text/plain"])
        #expect(stream.response.statusCode == 200)
        #expect(stream.response.headers["Content-Type"] == "text/plain")
        #expect(stream.response.body.isEmpty)
        var chunks: [Data] = []
        for try await chunk in stream { chunks.append(chunk) }
        #expect(chunks == [Data("ab".utf8), Data("c".utf8)])
    }
}
