import Foundation

extension ResponseStream {
    /// The body as lines of text, each yielded as soon as its line ending arrives.
    ///
    /// Lines end at LF, CRLF or CR and come without their ending; the text is UTF-8 (invalid
    /// bytes become U+FFFD) and a byte order mark at the start is dropped. A last line without an
    /// ending is yielded when the body ends. Empty lines are yielded as `""`. A line longer than
    /// the stream's `bufferLimit` ends the sequence with ``APIError/bufferLimitExceeded(_:)``.
    public var lines: Lines {
        Lines(stream: self)
    }

    /// The body as newline-delimited JSON (NDJSON, JSON Lines): each line decoded as `Value`, as soon as it arrives.
    ///
    /// Blank lines are skipped. A line that does not decode ends the sequence with
    /// ``APIError/decodingFailed(_:body:error:)``, naming the line's number, with the line as its `body`.
    /// - Parameters:
    ///   - type: The type of each line.
    ///   - decoder: The decoder; by default the client's ``ClientConfiguration/decoder``.
    public func lines<Value: Decodable>(as type: Value.Type, decoder: JSONDecoder? = nil) -> DecodedLines<Value> {
        DecodedLines(lines: lines, decoder: decoder ?? self.decoder)
    }

    /// The lines of a ``ResponseStream``.
    public struct Lines: AsyncSequence, Sendable {
        /// A line, without its line ending.
        public typealias Element = String

        fileprivate let stream: ResponseStream

        /// Makes the iterator; reading it reads the stream.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), limit: stream.bufferLimit)
        }

        /// Reads lines from a ``ResponseStream``.
        public struct Iterator: AsyncIteratorProtocol {
            private var reader: ChunkReader<LineParser>

            fileprivate init(base: ResponseBody.Iterator, limit: Int) {
                reader = ChunkReader(base: base, parser: LineParser(splitter: LineSplitter(limit: limit)))
            }

            /// The next line, or `nil` after the last.
            /// - Throws: The ``APIError`` that ended the stream, after the lines that came before it.
            public mutating func next() async throws(APIError) -> String? {
                try await reader.next()
            }
        }

        /// Lines from chunks, and a line that outgrows the limit as the error.
        fileprivate struct LineParser: ChunkParser {
            var splitter: LineSplitter

            mutating func parse(_ chunk: Data) -> (elements: [String], failure: APIError?) {
                let lines = splitter.append(chunk)
                return (lines, splitter.isOverLimit ? .bufferLimitExceeded(splitter.limit) : nil)
            }

            mutating func finish() -> [String] {
                splitter.finish().map { [$0] } ?? []
            }
        }
    }

    /// The lines of a ``ResponseStream``, each decoded from JSON.
    public struct DecodedLines<Value: Decodable>: AsyncSequence, Sendable {
        /// A decoded line.
        public typealias Element = Value

        fileprivate let lines: Lines
        fileprivate let decoder: JSONDecoder

        /// Makes the iterator; reading it reads the stream.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: lines.makeAsyncIterator(), decoder: decoder)
        }

        /// Reads and decodes lines from a ``ResponseStream``.
        public struct Iterator: AsyncIteratorProtocol {
            private var base: Lines.Iterator?
            private let decoder: JSONDecoder
            private var lineNumber = 0

            fileprivate init(base: Lines.Iterator, decoder: JSONDecoder) {
                self.base = base
                self.decoder = decoder
            }

            /// The next line's value, or `nil` after the last.
            /// - Throws: The ``APIError`` that ended the stream, or ``APIError/decodingFailed(_:body:error:)`` for a line that did not decode.
            public mutating func next() async throws(APIError) -> Value? {
                while let line = try await base?.next() {
                    lineNumber += 1
                    if line.allSatisfy(\.isWhitespace) { continue }
                    let data = Data(line.utf8)
                    do {
                        return try decoder.decode(Value.self, from: data)
                    } catch {
                        // Dropping the lines ends the transfer: a stream that went wrong is not read further.
                        base = nil
                        let reason = (error as? DecodingError)?.summary(decoding: Value.self) ?? "\(Value.self): \(error)"
                        throw .decodingFailed("\(reason) (line \(lineNumber))", body: data, error: error)
                    }
                }
                base = nil
                return nil
            }
        }
    }
}
