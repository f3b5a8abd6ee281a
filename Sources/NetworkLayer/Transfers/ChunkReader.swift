import Foundation

/// What ``ChunkReader`` makes of a stream's chunks: lines, events.
protocol ChunkParser {
    associatedtype Element

    /// The elements `chunk` completes, in order, and the error that stops the reading after them, if any.
    mutating func parse(_ chunk: Data) -> (elements: [Element], failure: APIError?)
    /// The elements still pending when the body has ended.
    mutating func finish() -> [Element]
}

/// Reads a ``ResponseStream`` chunk by chunk and hands out, one at a time, the elements its parser
/// makes of them: the one reading loop under ``ResponseStream/lines`` and ``ResponseStream/events``.
///
/// An error, the stream's or the parser's, comes after the elements before it; then `nil`. Ending,
/// either way, drops the stream's iterator, which ends the transfer.
struct ChunkReader<Parser: ChunkParser> {
    /// The stream; `nil` once it has ended or failed.
    private var base: ResponseBody.Iterator?
    private var parser: Parser
    private var pending: [Parser.Element] = []
    private var nextIndex = 0
    /// The error to throw once the elements before it have been read.
    private var failure: APIError?

    init(base: ResponseBody.Iterator, parser: Parser) {
        self.base = base
        self.parser = parser
    }

    /// The next element, or `nil` after the last.
    mutating func next() async throws(APIError) -> Parser.Element? {
        while true {
            if nextIndex < pending.count {
                defer { nextIndex += 1 }
                return pending[nextIndex]
            }
            if let failure {
                self.failure = nil
                throw failure
            }
            guard base != nil else { return nil }
            pending.removeAll(keepingCapacity: true)
            nextIndex = 0
            let chunk: Data?
            do {
                chunk = try await base?.next()
            } catch {
                // The stream failed: what was left of an element is not one.
                base = nil
                throw error
            }
            if let chunk {
                (pending, failure) = parser.parse(chunk)
                if failure != nil { base = nil }
            } else {
                base = nil
                pending = parser.finish()
            }
        }
    }
}
