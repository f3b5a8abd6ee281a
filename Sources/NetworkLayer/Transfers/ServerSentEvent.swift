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
    /// so far, or `nil` when the server sent none. NetworkLayer does not reconnect by itself.
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
}

/// Turns the lines of a `text/event-stream` into events, field by field as the WHATWG
/// specification's "interpret an event stream" steps say.
///
/// Lines starting with `:` are comments; a line without `:` is a field with an empty value;
/// one space after the colon is dropped; unknown fields, `id` values containing NUL and
/// `retry` values that are not all ASCII digits are ignored. An empty line dispatches the
/// event, unless its data is empty. An event the stream ends in the middle of is dropped.
struct ServerSentEventParser {
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var lastEventID = ""
    private var retry: Int?

    /// Takes one line (without its line ending) and returns the event it dispatches, if any.
    mutating func parse(line: String) -> ServerSentEvent? {
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id":
            if !value.contains("\0") { lastEventID = String(value) }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let milliseconds = Int(value)
            {
                retry = milliseconds
            }
        default:
            break
        }
        return nil
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
