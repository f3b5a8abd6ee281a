import Foundation

/// A response body read as it arrives: an `AsyncSequence` of its chunks, with ``lines``,
/// ``lines(as:decoder:)`` (NDJSON) and ``events`` (Server-Sent Events) built on it.
///
/// ``APIClient/stream(for:bufferLimit:)`` returns it once the status is known to be acceptable,
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
/// - A slow reader slows the transfer down instead of failing it: at most 1 MiB waits unread in
///   memory (1 MiB). On Apple platforms the transfer pauses until
///   the reader catches up; on Linux, where FoundationNetworking cannot pause a transfer, what
///   arrives meanwhile waits in an unlinked temporary file, so memory stays flat and the disk holds
///   what is still unread.
/// - A line of ``lines`` or an event of ``events`` longer than the `bufferLimit` given to
///   ``APIClient/stream(for:bufferLimit:)`` (16 MiB by default) ends the sequence with
///   ``APIError/bufferLimitExceeded(_:)``, after the elements before it.
/// - Breaking out of the loop, or dropping the stream, cancels the transfer and closes its
///   connection.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body, in the sizes the transport delivers (on Linux, at most 16 KiB).
    public typealias Element = Data

    /// The response's status, headers and URL; its `body` is empty, since the body is this sequence.
    public let response: HTTPResponse
    /// The longest line or event ``lines`` and ``events`` read by default: 16 MiB.
    static let defaultBufferLimit = 16 * 1024 * 1024

    /// The decoder ``lines(as:decoder:)`` uses by default: the client's.
    let decoder: JSONDecoder
    /// The longest line or event ``lines`` and ``events`` hold before failing.
    let bufferLimit: Int
    /// The body, cancelled when the stream is dropped; every read of the stream reads it.
    private let end: ResponseBodyEnd

    init(response: HTTPResponse, body: ResponseBody, decoder: JSONDecoder, bufferLimit: Int) {
        self.response = response
        self.decoder = decoder
        self.bufferLimit = bufferLimit
        end = ResponseBodyEnd(body)
    }

    /// Makes the iterator, the body's own: a stream is read once, and ending that read (the loop
    /// ending, however) ends the transfer, even while the stream is still held.
    public func makeAsyncIterator() -> ResponseBody.Iterator {
        end.body.makeEndingIterator(keeping: end)
    }
}
