import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

/// Server-Sent Events checked against vectors nobody here wrote: the web-platform-tests of
/// EventSource (`eventsource/format-*.any.js`), whose server sends the message followed by `"\n\n\n"`,
/// or by `"\n"` with `newline=none`, and the WHATWG parsing rules at the Unicode edges a
/// `Character`-based parser gets wrong (a colon, a space or a NUL followed by a combining mark).
@Suite("Server-Sent Events against web-platform-tests and the WHATWG rules")
struct ServerSentEventVectorTests {
    /// A web-platform-tests message as its `message.py` sends it.
    static func wpt(_ message: String, newline: Bool = true) -> String {
        message + (newline ? "\n\n\n" : "\n")
    }

    static let longComment = String(repeating: "x", count: 2048)

    static let vectors: [(name: String, stream: String, events: [ServerSentEvent])] = [
        (
            "format-field-parsing",
            wpt(
                "data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n",
                newline: false),
            [ServerSentEvent(data: "\0\n 2\n1\n3\n\n4")]
        ),
        ("format-field-data", wpt("data:\n\ndata\ndata\n\ndata:test"), ["", "\n", "test"].map { ServerSentEvent(data: $0) }),
        (
            "format-comments",
            wpt("data:1\r:\0\n:\r\ndata:2\n:\(longComment)\rdata:3\n:data:fail\r:\(longComment)\ndata:4\n", newline: false),
            [ServerSentEvent(data: "1\n2\n3\n4")]
        ),
        ("format-newlines", wpt("data:test\r\ndata\ndata:test\r\n\r", newline: false), [ServerSentEvent(data: "test\n\ntest")]),
        ("format-leading-space", wpt("data:\ttest\rdata: \ndata:test"), [ServerSentEvent(data: "\ttest\n\ntest")]),
        ("format-null-character", wpt("data:\0\n\n"), [ServerSentEvent(data: "\0")]),
        (
            "format-field-unknown", wpt("data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test"),
            [ServerSentEvent(data: "test\n\ntest")]
        ),
        (
            "format-field-event", wpt("event:test\ndata:x\n\ndata:x"),
            [ServerSentEvent(event: "test", data: "x"), ServerSentEvent(data: "x")]
        ),
        ("format-field-event-empty", wpt("event: \ndata:data"), [ServerSentEvent(data: "data")]),
        ("format-field-retry", wpt("retry:03000\ndata:x"), [ServerSentEvent(data: "x", retry: 3000)]),
        ("format-field-retry-empty", wpt("retry\ndata:test"), [ServerSentEvent(data: "test")]),
        ("format-bom", wpt("\u{FEFF}data:1\n\n\u{FEFF}data:2\n\ndata:3"), [ServerSentEvent(data: "1"), ServerSentEvent(data: "3")]),
        ("format-bom-2", wpt("\u{FEFF}\u{FEFF}data:1\n\ndata:2\n\ndata:3"), [ServerSentEvent(data: "2"), ServerSentEvent(data: "3")]),
        (
            "format-data-before-final-empty-line", wpt("retry:1000\ndata:test1\n\nid:test\ndata:test2", newline: false),
            [ServerSentEvent(data: "test1", retry: 1000)]
        ),
        ("format-utf-8", wpt("data:ok\u{2026}"), [ServerSentEvent(data: "ok\u{2026}")]),
        // format-field-id-null: an id containing NUL anywhere is ignored.
        ("id NUL NUL", wpt("id:\0\0\ndata:hello"), [ServerSentEvent(data: "hello")]),
        ("id x NUL", wpt("id:x\0\ndata:hello"), [ServerSentEvent(data: "hello")]),
        ("id NUL x", wpt("id:\0x\ndata:hello"), [ServerSentEvent(data: "hello")]),
        ("id x NUL x", wpt("id:x\0x\ndata:hello"), [ServerSentEvent(data: "hello")]),
        ("id space NUL", wpt("id: \0\ndata:hello"), [ServerSentEvent(data: "hello")]),
        // WHATWG: the field name is everything before the first U+003A and one U+0020 after it is
        // dropped, whatever code point follows; a Character-based parser sees one grapheme there.
        ("colon then combining mark", "data:\u{301}x\n\n", [ServerSentEvent(data: "\u{301}x")]),
        ("space then combining mark", "data: \u{301}x\n\n", [ServerSentEvent(data: "\u{301}x")]),
        ("event then zero-width joiner", "event:\u{200D}ping\ndata:x\n\n", [ServerSentEvent(event: "\u{200D}ping", data: "x")]),
        ("id then variation selector", "id:\u{FE0F}1\ndata:x\n\n", [ServerSentEvent(data: "x", id: "\u{FE0F}1")]),
        ("id with NUL then combining mark", "id:a\0\u{301}\ndata:x\n\n", [ServerSentEvent(data: "x")]),
        ("comment colon then combining mark", ":\u{301}data:x\ndata:y\n\n", [ServerSentEvent(data: "y")]),
        ("CR then combining mark ends the line", "data:a\r\u{301}\ndata:b\n\n", [ServerSentEvent(data: "a\nb")]),
        // The specification reads the digits whatever their count; past Int they hold at Int.max.
        ("retry beyond Int", "retry:99999999999999999999999\ndata:x\n\n", [ServerSentEvent(data: "x", retry: .max)]),
        ("retry with a sign", "retry:+5\ndata:x\n\nretry:-5\ndata:y\n\n", [ServerSentEvent(data: "x"), ServerSentEvent(data: "y")]),
        ("a body of only a byte order mark", "\u{FEFF}", []),
    ]

    @Test("Each vector gives the events the specification dispatches", arguments: vectors.indices)
    func vector(index: Int) async throws {
        let vector = Self.vectors[index]
        var events: [ServerSentEvent] = []
        for try await event in try await StreamParsingTests.Streams().open([Data(vector.stream.utf8)]).events {
            events.append(event)
        }
        #expect(events == vector.events, "\(vector.name)")
        // Equality of events is scalar for scalar, so a canonically equivalent look-alike is not enough.
        #expect(events.map { Array($0.data.unicodeScalars) } == vector.events.map { Array($0.data.unicodeScalars) }, "\(vector.name)")
    }

    @Test("Events that only look alike are different events: equality is scalar for scalar")
    func scalarEquality() {
        let precomposed = ServerSentEvent(data: "x", id: "caf\u{E9}")
        let decomposed = ServerSentEvent(data: "x", id: "cafe\u{301}")
        #expect(precomposed != decomposed)
        #expect(Set([precomposed, decomposed]).count == 2)
        #expect(ServerSentEvent(data: "x", id: "") != ServerSentEvent(data: "x"))
    }

    @Test("A body of only a byte order mark has no lines, wherever the mark is cut")
    func byteOrderMarkOnly() async throws {
        let streams = StreamParsingTests.Streams()
        let mark = Data([0xEF, 0xBB, 0xBF])
        for cut in 0..<3 {
            var lines: [String] = []
            let chunks = cut == 0 ? [mark] : [mark.prefix(cut), mark.dropFirst(cut)]
            for try await line in try await streams.open(chunks).lines { lines.append(line) }
            #expect(lines.isEmpty, "cut at \(cut)")
        }
    }
}
