import Foundation

/// A response body as it arrives: an `AsyncSequence` of chunks, read once.
///
/// A transport makes one with ``init(_:)`` when it has the whole body, or with
/// ``makeStream(highWatermark:onDemand:onTermination:)`` to feed it chunk by chunk through a
/// ``Writer``. The body buffers what the reader has not taken yet, up to a high watermark; beyond
/// that the writer is told to pause (``Writer/yield(_:)`` answers ``YieldResult/pause``, and
/// ``Writer/write(_:)`` waits), and the transport's `onDemand` runs once the reader has caught up.
/// That is how a slow reader slows the transfer down instead of failing it.
///
/// Reading it to its end, or failing, finishes it. A reader that stops early should call
/// ``cancel()``; dropping the last copy of an unfinished body cancels it too. Either way the
/// transport hears of it through `onTermination` and ends the exchange.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body, in the sizes the transport delivers.
    public typealias Element = Data

    private enum Storage: Sendable {
        case complete(Data)
        case streamed(ResponseBodyReader)
    }

    /// The most bytes a reader is handed before the body fails with
    /// ``APIError/responseTooLarge(_:limit:received:announced:)``.
    struct Limit: Sendable {
        let kind: ResponseLimits.Kind
        let bytes: Int64

        /// The error of a body that reached `received` bytes, if that is past the limit.
        func check(_ received: Int64) throws(APIError) {
            if received > bytes { throw .responseTooLarge(kind, limit: bytes, received: received) }
        }
    }

    private let storage: Storage
    private var limit: Limit?
    /// Counts the chunks handed to the reader, and hears when the body ends, for the ``NetworkEvent``s.
    private var meter: TransferMeter?

    /// A body that is already whole in memory; empty by default.
    public init(_ data: Data = Data()) {
        storage = .complete(data)
    }

    /// The most bytes a streamed body buffers unread before it asks its writer to pause, by default: 1 MiB.
    @usableFromInline static let defaultHighWatermark = 1024 * 1024

    /// Makes a body to feed chunk by chunk, and the writer that feeds it.
    /// - Parameters:
    ///   - highWatermark: The unread bytes beyond which the writer is asked to pause; 1 MiB by default.
    ///     It resumes once the reader has taken half of them.
    ///   - onDemand: Called when a writer that was asked to pause may go on; on the reader's thread,
    ///     so keep it quick. `nil` by default (a writer using ``Writer/write(_:)`` needs none).
    ///   - onTermination: Called once when the reader ends the body before the writer finished it (it
    ///     cancelled, failed or dropped it), with the reason: stop producing and release the
    ///     connection. `nil` by default.
    /// - Returns: The body for the reader, and the writer for the transport.
    public static func makeStream(
        highWatermark: Int = defaultHighWatermark,
        onDemand: (@Sendable () -> Void)? = nil,
        onTermination: (@Sendable (APIError) -> Void)? = nil
    ) -> (body: ResponseBody, writer: Writer) {
        let buffer = ResponseBodyBuffer(highWatermark: Swift.max(1, highWatermark), onDemand: onDemand, onTermination: onTermination)
        return (ResponseBody(reader: ResponseBodyReader(buffer)), Writer(buffer: buffer))
    }

    private init(reader: ResponseBodyReader) {
        storage = .streamed(reader)
    }

    /// The size of a body that is whole in memory, `nil` for a streamed one.
    var wholeSize: Int64? {
        if case .complete(let data) = storage { Int64(data.count) } else { nil }
    }

    /// This body, failing with ``APIError/responseTooLarge(_:limit:received:announced:)`` (and ending the
    /// transfer at once) as soon as more than `bytes` of it arrive, however it is read.
    func limited(to bytes: Int64, _ kind: ResponseLimits.Kind) -> ResponseBody {
        var body = self
        body.limit = Limit(kind: kind, bytes: bytes)
        return body
    }

    /// This body, telling `meter` of every chunk handed to its reader and of its end.
    func metered(by meter: TransferMeter) -> ResponseBody {
        var body = self
        body.meter = meter
        meter.attachBody()
        return body
    }

    /// Makes the iterator; a body is read once.
    public func makeAsyncIterator() -> Iterator {
        switch storage {
        case .complete(let data): Iterator(pending: data.isEmpty ? nil : data, reader: nil, limit: limit, meter: meter)
        case .streamed(let reader): Iterator(pending: nil, reader: reader, limit: limit, meter: meter)
        }
    }

    /// Makes an iterator whose end is the body's: once it and its copies are gone, an unfinished body
    /// is cancelled, however many copies of the body remain (a ``ResponseStream``'s loop that ends).
    /// It keeps `owner` (the stream's own end) alive as long as it reads.
    func makeEndingIterator(keeping owner: ResponseBodyEnd) -> Iterator {
        var iterator = makeAsyncIterator()
        iterator.end = ResponseBodyEnd(self, owner: owner)
        return iterator
    }

    /// Reads the whole body into memory: its chunks are kept as they arrive and joined once, at its end,
    /// so that a body that fails on the way has cost no copy.
    /// - Throws: The ``APIError`` that ended the body; ``APIError/cancelled`` when the calling task is cancelled.
    public func collect() async throws(APIError) -> Data {
        try await collect(announcedLength: nil)
    }

    /// ``collect()`` of a body whose head announces `length` (`nil` for none, or for an encoded body):
    /// collected into one buffer of that length, as a ``CollectedBody`` does. `length` is read only
    /// for a body that streams.
    func collect(announcedLength length: @autoclosure () -> Int64?) async throws(APIError) -> Data {
        switch storage {
        case .complete(let data):
            do {
                try limit?.check(Int64(data.count))
            } catch {
                meter?.bodyEnded(error)
                throw error
            }
            meter?.received(data.count)
            meter?.bodyEnded(nil)
            return data
        case .streamed:
            let length = length()
            let collected = Locked(CollectedBody())
            try await consume { chunk throws(APIError) in collected.withLock { $0.append(chunk, announcedLength: length) } }
            // Taken out of the box, so that the caller holds the only reference and nothing is copied.
            return collected.withLock { $0.take() }
        }
    }

    /// Reads at most `maxLength` bytes of the body, then cancels the rest: for an error page, say.
    /// - Parameter maxLength: The most bytes to read.
    /// - Returns: The start of the body, or all of it when it is shorter.
    /// - Throws: The ``APIError`` that ended the body before `maxLength` bytes.
    func prefix(upTo maxLength: Int) async throws(APIError) -> Data {
        var data = Data()
        var iterator = makeAsyncIterator()
        while data.count < maxLength, let chunk = try await iterator.next() {
            data.append(chunk.prefix(maxLength - data.count))
        }
        if data.count >= maxLength { cancel() }
        return data
    }

    /// Hands each chunk to `handler` as soon as it arrives, on the thread that delivers it, until
    /// the body ends: for consumers that never wait (writing to a file, appending to a buffer), which
    /// then keep pace with the transport without any buffering. Chunks come one at a time, in order.
    /// - Throws: The ``APIError`` that ended the body, or the one `handler` threw (which cancels the body).
    func consume(_ handler: @escaping @Sendable (Data) throws(APIError) -> Void) async throws(APIError) {
        guard let meter else { return try await consumeUnmetered(handler) }
        do {
            try await consumeUnmetered { chunk throws(APIError) in
                meter.received(chunk.count)
                try handler(chunk)
            }
            meter.bodyEnded(nil)
        } catch {
            meter.bodyEnded(error)
            throw error
        }
    }

    /// ``consume(_:)`` without the meter.
    private func consumeUnmetered(_ handler: @escaping @Sendable (Data) throws(APIError) -> Void) async throws(APIError) {
        switch storage {
        case .complete(let data):
            try limit?.check(Int64(data.count))
            if !data.isEmpty { try handler(data) }
        case .streamed(let reader):
            guard let limit else { return try await reader.buffer.consume(handler) }
            // Chunks come one at a time, but on whichever thread delivers them.
            let received = Locked<Int64>(0)
            try await reader.buffer.consume { chunk throws(APIError) in
                try limit.check(
                    received.withLock { received in
                        received += Int64(chunk.count)
                        return received
                    })
                try handler(chunk)
            }
        }
    }

    /// Ends the body before its end: the transport stops the transfer and closes its connection.
    public func cancel() {
        if case .streamed(let reader) = storage { reader.buffer.terminate(.cancelled) }
        meter?.bodyEnded(.cancelled)
    }

    /// Reads a ``ResponseBody``'s chunks.
    public struct Iterator: AsyncIteratorProtocol {
        private var pending: Data?
        private let reader: ResponseBodyReader?
        private let limit: Limit?
        private let meter: TransferMeter?
        private var received: Int64 = 0
        /// Cancels an unfinished body when the iterator and its copies are gone; see ``ResponseBody/makeEndingIterator()``.
        fileprivate var end: ResponseBodyEnd?

        fileprivate init(pending: Data?, reader: ResponseBodyReader?, limit: Limit?, meter: TransferMeter?) {
            self.pending = pending
            self.reader = reader
            self.limit = limit
            self.meter = meter
        }

        /// The next chunk, or `nil` once the body has ended.
        /// - Throws: The ``APIError`` that ended the body; ``APIError/cancelled`` when the calling task
        ///   is cancelled; ``APIError/responseTooLarge(_:limit:received:announced:)`` when the body went past its limit.
        public mutating func next() async throws(APIError) -> Data? {
            guard let meter else { return try await nextUnmetered() }
            do {
                let chunk = try await nextUnmetered()
                if let chunk { meter.received(chunk.count) } else { meter.bodyEnded(nil) }
                return chunk
            } catch {
                meter.bodyEnded(error)
                throw error
            }
        }

        /// ``next()`` without the meter.
        private mutating func nextUnmetered() async throws(APIError) -> Data? {
            let chunk: Data?
            if let pending {
                self.pending = nil
                chunk = pending
            } else {
                chunk = try await reader?.buffer.next()
            }
            guard let limit, let chunk else { return chunk }
            received += Int64(chunk.count)
            do {
                try limit.check(received)
            } catch {
                // The transfer stops here, whoever holds the body.
                reader?.buffer.terminate(error)
                throw error
            }
            return chunk
        }
    }

    /// A streamed body's hold on its buffer: when the last copy of the body and its iterators is
    /// gone, an unfinished body is cancelled.
    fileprivate final class ResponseBodyReader: Sendable {
        let buffer: ResponseBodyBuffer

        init(_ buffer: ResponseBodyBuffer) {
            self.buffer = buffer
        }

        deinit { buffer.terminate(.cancelled) }
    }
}

extension ResponseBody {
    /// What became of a chunk handed to ``Writer/yield(_:)``.
    public enum YieldResult: Sendable, Equatable {
        /// Taken; send more.
        case more
        /// Taken, but the reader is behind: pause until `onDemand` is called.
        case pause
        /// Dropped: the reader has ended the body; stop producing.
        case dropped
    }

    /// The producing end of a streamed ``ResponseBody``, held by the transport.
    ///
    /// Its calls must not overlap: a transport delivers chunks one at a time, in order, and then
    /// finishes once.
    public struct Writer: Sendable {
        fileprivate let buffer: ResponseBodyBuffer

        /// Hands the reader `chunk` without waiting, for transports driven by callbacks.
        /// - Returns: Whether to go on, pause until `onDemand`, or stop.
        @discardableResult
        public func yield(_ chunk: Data) -> YieldResult {
            buffer.yield(chunk)
        }

        /// Hands the reader `chunk`, waiting while the reader is behind, for transports that produce from a task.
        /// - Throws: ``APIError/cancelled`` when the reader has ended the body: stop producing.
        public func write(_ chunk: Data) async throws(APIError) {
            try await buffer.write(chunk)
        }

        /// Ends the body: the reader gets the chunks still buffered, then the end, or `error`.
        /// - Parameter error: Why the body ended early; `nil` (the default) for its end.
        public func finish(throwing error: APIError? = nil) {
            buffer.finish(with: error)
        }
    }
}

/// Cancels a body when it goes: held by a ``ResponseStream`` and its iterators, so that dropping
/// either ends the transfer, with the body's events, however many copies of the body remain.
final class ResponseBodyEnd: Sendable {
    let body: ResponseBody
    /// The end this one keeps alive: an iterator's keeps its stream's.
    private let owner: ResponseBodyEnd?

    init(_ body: ResponseBody, owner: ResponseBodyEnd? = nil) {
        self.body = body
        self.owner = owner
    }

    deinit { body.cancel() }
}
