/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG EventSource
/// specification dispatches it.
///
/// Read them from ``ResponseStream/events``:
///
/// ```swift
/// for try await event in try await client.stream(for: Feed.updates).events {
///     print(event.event, event.data)
/// }
/// ```
///
/// Two events are equal when their fields hold the same Unicode scalars: text that merely looks
/// the same (`"é"` precomposed or as `e` and a combining accent) is a different event ID.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the `event` field, or `"message"` when the event has none.
    public var event: String
    /// The data: the `data` fields of the event joined with LF (`"\n"`), without a trailing LF.
    public var data: String
    /// The last event ID: the most recent `id` field of the stream so far (it carries over to later
    /// events), or `nil` when none was sent or an empty `id` reset it. Send it back as
    /// `Last-Event-ID` when reconnecting.
    public var id: String?
    /// The reconnection time in milliseconds from the most recent valid `retry` field of the stream
    /// so far (`Int.max` for a number larger than that), or `nil` when the server sent none.
    /// NetworkLayer does not reconnect by itself.
    public var retry: Int?

    /// Creates an event.
    /// - Parameters:
    ///   - event: The event type; `"message"` by default.
    ///   - data: The data.
    ///   - id: The last event ID; `nil` by default.
    ///   - retry: The reconnection time in milliseconds; `nil` by default.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Whether the two events have the same type, data, ID and retry, compared scalar for scalar.
    public static func == (lhs: ServerSentEvent, rhs: ServerSentEvent) -> Bool {
        guard lhs.retry == rhs.retry, lhs.event.utf8.elementsEqual(rhs.event.utf8), lhs.data.utf8.elementsEqual(rhs.data.utf8)
        else { return false }
        switch (lhs.id, rhs.id) {
        case (nil, nil): return true
        case let (left?, right?): return left.utf8.elementsEqual(right.utf8)
        default: return false
        }
    }

    /// Hashes the fields' UTF-8 bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(retry)
        for text in [event, data, id ?? ""] {
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        }
        hasher.combine(id == nil)
    }
}

/// Turns the lines of a `text/event-stream` into events, field by field as the WHATWG
/// specification's "interpret an event stream" steps say.
///
/// Lines are read as UTF-8 bytes, never as Swift `Character`s: a colon or a space followed by a
/// combining mark is still a colon or a space, as the specification's code points say. Lines
/// starting with `:` are comments; a line without `:` is a field with an empty value; one space
/// after the colon is dropped; field names match exactly (case-sensitive); unknown fields and
/// `id` values containing NUL are ignored. A `retry` value of ASCII digits sets the reconnection
/// time, held at `Int.max` when it is larger; any other `retry` value is ignored. An empty line
/// dispatches the event, unless no `data` field came before it. An event the stream ends in the
/// middle of is dropped.
struct ServerSentEventParser {
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var lastEventID = ""
    private var retry: Int?

    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")

    /// Takes one line (without its line ending) and returns the event it dispatches, if any.
    mutating func parse(line: String) -> ServerSentEvent? {
        let bytes = line.utf8
        guard let first = bytes.first else { return dispatch() }
        if first == Self.colon { return nil }
        let field: Substring.UTF8View
        var value: Substring.UTF8View
        if let colon = bytes.firstIndex(of: Self.colon) {
            field = bytes[..<colon]
            value = bytes[bytes.index(after: colon)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            field = bytes[...]
            value = bytes[bytes.endIndex...]
        }
        // The cuts are at ASCII bytes, so every piece is whole UTF-8.
        if field.elementsEqual("data".utf8) {
            if hasData { data += "\n" }
            data += Substring(value)
            hasData = true
        } else if field.elementsEqual("event".utf8) {
            eventType = String(Substring(value))
        } else if field.elementsEqual("id".utf8) {
            if !value.contains(0) { lastEventID = String(Substring(value)) }
        } else if field.elementsEqual("retry".utf8) {
            if let milliseconds = Self.milliseconds(value) { retry = milliseconds }
        }
        return nil
    }

    /// The value of a `retry` field, or `nil` unless it is one or more ASCII digits; a number too
    /// large for `Int` is `Int.max`, since the specification reads the digits whatever their count.
    static func milliseconds(_ digits: Substring.UTF8View) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflow || overflow2 ? Int.max : sum
        }
        return value
    }

    /// The bytes of the event being read: its data and type so far.
    var bufferedBytes: Int { data.utf8.count + eventType.utf8.count }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType,
            data: data,
            id: lastEventID.isEmpty ? nil : lastEventID,
            retry: retry
        )
    }
}
