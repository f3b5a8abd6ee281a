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
            private var base: ResponseStream.Iterator
            private var splitter: LineSplitter
            private var parser = ServerSentEventParser()
            private var pending: [ServerSentEvent] = []
            private var nextIndex = 0
            private var isFinished = false

            fileprivate init(base: ResponseStream.Iterator, limit: Int) {
                self.base = base
                splitter = LineSplitter(limit: limit)
            }

            /// The next event, or `nil` once the body has ended.
            /// - Throws: The ``APIError`` that ended the stream.
            public mutating func next() async throws(APIError) -> ServerSentEvent? {
                while true {
                    if nextIndex < pending.count {
                        defer { nextIndex += 1 }
                        return pending[nextIndex]
                    }
                    pending.removeAll(keepingCapacity: true)
                    nextIndex = 0
                    guard !isFinished, let chunk = try await base.next() else { return nil }
                    do throws(APIError) {
                        pending = try splitter.append(chunk).compactMap { parser.parse(line: $0) }
                        // An event whose data lines never end with a blank line must not grow without bound.
                        if parser.bufferedBytes > splitter.limit { throw .bufferLimitExceeded(splitter.limit) }
                    } catch {
                        isFinished = true
                        throw error
                    }
                }
            }
        }
    }
}
