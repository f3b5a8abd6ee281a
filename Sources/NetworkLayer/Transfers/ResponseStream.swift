import Foundation

/// A response body read as it arrives: an `AsyncSequence` of its chunks, with ``lines``,
/// ``lines(as:decoder:)`` (NDJSON) and ``events`` (Server-Sent Events) built on it.
///
/// ``APIClient/stream(for:bufferLimit:)-(Endpoint,_)`` returns it once the status is known to be acceptable,
/// so ``response`` is always a success. Iterate it once:
///
/// ```swift
/// let stream = try await client.stream(for: LogAPI.tail)
/// for try await line in stream.lines {
///     print(line)
/// }
/// ```
///
/// - Errors are ``APIError``s: a transport failure, ``APIError/timedOut`` when nothing arrived for
///   the timeout, ``APIError/cancelled`` when the iterating task is cancelled.
/// - Memory is bounded: the body is buffered until read, up to the `bufferLimit` given to
///   ``APIClient/stream(for:bufferLimit:)-(Endpoint,_)`` (16 MiB by default). A reader that falls
///   further behind ends the stream with ``APIError/bufferLimitExceeded(_:)``, after the bytes
///   already buffered; so does a line of ``lines`` or an event of ``events`` longer than that. For bodies too large to keep up with, download them to a file instead.
/// - Breaking out of the loop, or dropping the stream, cancels the transfer and closes its
///   connection.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body, in the sizes the transport delivers (on Linux, at most 16 KiB).
    public typealias Element = Data

    /// The response's status, headers and URL; its `body` is empty, since the body is this sequence.
    public let response: HTTPResponse
    /// The most bytes ``APIClient/stream(for:bufferLimit:)-(Endpoint,_)`` buffers unread by default: 16 MiB.
    public static let defaultBufferLimit = 16 * 1024 * 1024

    /// The decoder ``lines(as:decoder:)`` uses by default: the client's.
    let decoder: JSONDecoder
    private let source: Source

    init(
        response: HTTPResponse, decoder: JSONDecoder, chunks: AsyncThrowingStream<Data, any Error>, transfer: Transfer,
        receiver: StreamReceiver
    ) {
        self.response = response
        self.decoder = decoder
        source = Source(chunks: chunks, transfer: transfer, receiver: receiver)
    }

    /// The most bytes buffered unread; ``lines`` and ``events`` hold a line or an event to no more than this.
    var bufferLimit: Int { source.receiver.bufferLimit }

    /// Makes the iterator; a stream is read once, and ending that read ends the transfer.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: source)
    }

    /// Reads a ``ResponseStream``'s chunks.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: AsyncThrowingStream<Data, any Error>.Iterator
        private let reader: Reader
        private var isFinished = false

        fileprivate init(source: Source) {
            base = source.chunks.makeAsyncIterator()
            reader = Reader(source: source)
        }

        /// The next chunk, or `nil` once the body has been read to its end.
        /// - Throws: The ``APIError`` that ended the transfer; ``APIError/cancelled`` when the task was cancelled.
        public mutating func next() async throws(APIError) -> Data? {
            guard !isFinished else { return nil }
            do {
                if let chunk = try await base.next() {
                    reader.source.receiver.didRead(chunk.count)
                    return chunk
                }
            } catch {
                isFinished = true
                throw APIError(transportError: error)
            }
            isFinished = true
            if Task.isCancelled, !reader.source.receiver.hasSucceeded { throw .cancelled }
            return nil
        }
    }

    /// What a stream and its iterator share; when the last of them is gone, the transfer is cancelled.
    fileprivate final class Source: Sendable {
        let chunks: AsyncThrowingStream<Data, any Error>
        let transfer: Transfer
        let receiver: StreamReceiver

        init(chunks: AsyncThrowingStream<Data, any Error>, transfer: Transfer, receiver: StreamReceiver) {
            self.chunks = chunks
            self.transfer = transfer
            self.receiver = receiver
        }

        deinit { transfer.cancel(.cancelled) }
    }

    /// An iterator's hold on the transfer: when the iterator goes (the loop ended, however), so does the transfer.
    fileprivate final class Reader: Sendable {
        let source: Source

        init(source: Source) {
            self.source = source
        }

        deinit { source.transfer.cancel(.cancelled) }
    }
}
