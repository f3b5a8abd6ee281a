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
            /// The stream; `nil` once it has ended or failed, which ends the transfer.
            private var base: ResponseStream.Iterator?
            private var splitter: LineSplitter
            private var parser = ServerSentEventParser()
            private var pending: [ServerSentEvent] = []
            private var nextIndex = 0
            /// The error to throw once the events before it have been read.
            private var failure: APIError?

            fileprivate init(base: ResponseStream.Iterator, limit: Int) {
                self.base = base
                splitter = LineSplitter(limit: limit)
            }

            /// The next event, or `nil` once the body has ended.
            /// - Throws: The ``APIError`` that ended the stream, after the events that came before it.
            public mutating func next() async throws(APIError) -> ServerSentEvent? {
                while true {
                    if nextIndex < pending.count {
                        defer { nextIndex += 1 }
                        return pending[nextIndex]
                    }
                    if let failure {
                        self.failure = nil
                        throw failure
                    }
                    pending.removeAll(keepingCapacity: true)
                    nextIndex = 0
                    let chunk: Data?
                    do {
                        chunk = try await base?.next()
                    } catch {
                        base = nil
                        throw error
                    }
                    guard let chunk else {
                        base = nil
                        return nil
                    }
                    pending = splitter.append(chunk).compactMap { parser.parse(line: $0) }
                    // A line, or an event whose data lines never end with a blank line, must not grow without bound.
                    if splitter.isOverLimit || parser.bufferedBytes > splitter.limit {
                        base = nil
                        failure = .bufferLimitExceeded(splitter.limit)
                    }
                }
            }
        }
    }
}
