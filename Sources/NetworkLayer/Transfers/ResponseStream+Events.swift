import Foundation

extension ResponseStream {
    /// The body as Server-Sent Events (`text/event-stream`), parsed as the WHATWG EventSource
    /// specification says, each yielded as soon as the blank line that ends it arrives.
    ///
    /// `data` may span several lines, `event`, `id` and `retry` are honoured, comments (lines
    /// starting with `:`) are skipped, and lines may end in LF, CRLF or CR. An event the body ends
    /// in the middle of is dropped. There is no automatic reconnection: to resume, stream again
    /// with the last event's ``ServerSentEvent/id`` in a `Last-Event-ID` header. Ask for the
    /// format with an `Accept: text/event-stream` header on the endpoint. A line or an event longer
    /// than the stream's `bufferLimit` ends the sequence with ``APIError/bufferLimitExceeded(_:)``.
    public var events: Events {
        Events(stream: self)
    }

    /// The Server-Sent Events of a ``ResponseStream``.
    public struct Events: AsyncSequence, Sendable {
        /// An event.
        public typealias Element = ServerSentEvent

        fileprivate let stream: ResponseStream

        /// Makes the iterator; reading it reads the stream.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), limit: stream.bufferLimit)
        }

        /// Reads events from a ``ResponseStream``.
        public struct Iterator: AsyncIteratorProtocol {
            private var reader: ChunkReader<EventParser>

            fileprivate init(base: ResponseBody.Iterator, limit: Int) {
                reader = ChunkReader(base: base, parser: EventParser(splitter: LineSplitter(limit: limit)))
            }

            /// The next event, or `nil` once the body has ended.
            /// - Throws: The ``APIError`` that ended the stream, after the events that came before it.
            public mutating func next() async throws(APIError) -> ServerSentEvent? {
                try await reader.next()
            }
        }

        /// Events from chunks; a line, or an event whose data lines never end with a blank line,
        /// that outgrows the limit is the error.
        fileprivate struct EventParser: ChunkParser {
            var splitter: LineSplitter
            var parser = ServerSentEventParser()

            mutating func parse(_ chunk: Data) -> (elements: [ServerSentEvent], failure: APIError?) {
                let events = splitter.append(chunk).compactMap { parser.parse(line: $0) }
                let isOverLimit = splitter.isOverLimit || parser.bufferedBytes > splitter.limit
                return (events, isOverLimit ? .bufferLimitExceeded(splitter.limit) : nil)
            }

            /// Nothing: an event the body ends in the middle of is dropped.
            mutating func finish() -> [ServerSentEvent] { [] }
        }
    }
}
