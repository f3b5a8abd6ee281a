import Foundation

/// The state a streamed ``ResponseBody`` and its ``ResponseBody/Writer`` share: the chunks not yet
/// read, how the body ended, who waits for whom.
///
/// The reader either pulls chunks one at a time (``next()``), waiting while none is buffered, or
/// installs a handler (``consume(_:)``) that the writer then calls directly for every chunk. The
/// writer is asked to pause when more than the high watermark waits unread, and may go on once the
/// reader has taken half of it. Whichever side ends the body first decides how it ended; a reader
/// that ends it early (cancelled, failed, gone) makes the writer drop everything from then on, and
/// the transport is told once, through `onTermination`.
final class ResponseBodyBuffer: Sendable {
    private enum End {
        case finished
        case failed(APIError)
    }

    /// Why a reader that installed a handler woke up.
    private enum SinkWake {
        /// Chunks arrived, or the body ended, before the handler was in place: look again.
        case retry
        case ended(Result<Void, APIError>)
    }

    private struct State {
        var chunks: [Data] = []
        var firstChunk = 0
        var bufferedBytes = 0
        var end: End?
        /// Whether the reader ended the body: what the writer yields from then on is dropped.
        var isTerminated = false
        var isPaused = false
        var reader: CheckedContinuation<Void, Never>?
        var writer: CheckedContinuation<Void, Never>?
        var sink: (@Sendable (Data) throws(APIError) -> Void)?
        var sinkWaiter: CheckedContinuation<SinkWake, Never>?
        /// The transport's callbacks, dropped once the body has ended: they may hold what holds this buffer.
        var onDemand: (@Sendable () -> Void)?
        var onTermination: (@Sendable (APIError) -> Void)?

        var hasChunks: Bool { firstChunk < chunks.count }

        mutating func takeChunk() -> Data {
            let chunk = chunks[firstChunk]
            chunks[firstChunk] = Data()
            firstChunk += 1
            if firstChunk == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                firstChunk = 0
            }
            bufferedBytes -= chunk.count
            return chunk
        }

        mutating func takeAllChunks() -> ArraySlice<Data> {
            defer {
                chunks.removeAll(keepingCapacity: true)
                firstChunk = 0
                bufferedBytes = 0
            }
            return chunks[firstChunk...]
        }
    }

    private let state: Locked<State>
    private let highWatermark: Int

    init(highWatermark: Int, onDemand: (@Sendable () -> Void)?, onTermination: (@Sendable (APIError) -> Void)?) {
        self.highWatermark = highWatermark
        state = Locked(State(onDemand: onDemand, onTermination: onTermination))
    }

    // MARK: The writer's side

    func yield(_ chunk: Data) -> ResponseBody.YieldResult {
        guard !chunk.isEmpty else { return .more }
        let step = state.withLock {
            state -> (ResponseBody.YieldResult, CheckedContinuation<Void, Never>?, (@Sendable (Data) throws(APIError) -> Void)?) in
            guard !state.isTerminated, state.end == nil else { return (.dropped, nil, nil) }
            if let sink = state.sink { return (.more, nil, sink) }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            let reader = state.reader
            state.reader = nil
            if state.bufferedBytes > highWatermark { state.isPaused = true }
            return (state.isPaused ? .pause : .more, reader, nil)
        }
        let (result, reader, sink) = step
        reader?.resume()
        guard let sink else { return result }
        do {
            try sink(chunk)
            return .more
        } catch {
            terminate(error)
            return .dropped
        }
    }

    func write(_ chunk: Data) async throws(APIError) {
        switch yield(chunk) {
        case .more: return
        case .dropped: throw .cancelled
        case .pause: break
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    guard state.isPaused, !state.isTerminated, !Task.isCancelled else { return false }
                    state.writer = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            let writer = state.withLock { state in
                defer { state.writer = nil }
                return state.writer
            }
            writer?.resume()
        }
        if state.withLock({ $0.isTerminated }) { throw .cancelled }
        if Task.isCancelled { throw .cancelled }
    }

    /// Ends the body as the writer says, unless it has ended already.
    func finish(with error: APIError?) {
        let waiters = state.withLock { state -> (CheckedContinuation<Void, Never>?, CheckedContinuation<SinkWake, Never>?)? in
            guard state.end == nil, !state.isTerminated else { return nil }
            state.end = error.map(End.failed) ?? .finished
            state.onDemand = nil
            state.onTermination = nil
            defer {
                state.reader = nil
                state.sinkWaiter = nil
                state.sink = nil
            }
            return (state.reader, state.sinkWaiter)
        }
        guard let (reader, sinkWaiter) = waiters else { return }
        reader?.resume()
        sinkWaiter?.resume(returning: .ended(error.map { .failure($0) } ?? .success(())))
    }

    // MARK: The reader's side

    /// The next chunk, waiting for one; `nil` at the end.
    func next() async throws(APIError) -> Data? {
        while true {
            let step = state.withLock { state -> Result<Data?, APIError>? in
                if state.hasChunks {
                    return .success(state.takeChunk())
                }
                switch state.end {
                case .finished: return .success(nil)
                case .failed(let error): return .failure(error)
                case nil: return nil
                }
            }
            if let step {
                resumeWriterIfCaughtUp()
                return try step.get()
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waits = state.withLock { state -> Bool in
                        guard !state.hasChunks, state.end == nil else { return false }
                        state.reader = continuation
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            } onCancel: {
                terminate(.cancelled)
            }
        }
    }

    /// Hands every chunk to `handler` until the body ends: the buffered ones first, on this task,
    /// then each new one on the writer's thread as it is yielded.
    func consume(_ handler: @escaping @Sendable (Data) throws(APIError) -> Void) async throws(APIError) {
        while true {
            let (chunks, end) = state.withLock { state in (state.takeAllChunks(), state.end) }
            if !chunks.isEmpty {
                resumeWriterIfCaughtUp()
                for chunk in chunks {
                    do {
                        try handler(chunk)
                    } catch {
                        terminate(error)
                        throw error
                    }
                }
                continue
            }
            switch end {
            case .finished: return
            case .failed(let error): throw error
            case nil: break
            }
            let wake = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<SinkWake, Never>) in
                    let installed = state.withLock { state -> Bool in
                        guard !state.hasChunks, state.end == nil else { return false }
                        state.sink = handler
                        state.sinkWaiter = continuation
                        return true
                    }
                    if !installed { continuation.resume(returning: .retry) }
                }
            } onCancel: {
                terminate(.cancelled)
            }
            switch wake {
            case .retry: continue
            case .ended(let result): return try result.get()
            }
        }
    }

    /// Ends the body from the reader's side with `error`, unless it has ended already, and tells the
    /// transport; the writer's chunks are dropped from now on.
    func terminate(_ error: APIError) {
        let ended = state.withLock {
            state -> (
                (@Sendable (APIError) -> Void)?, CheckedContinuation<Void, Never>?, CheckedContinuation<Void, Never>?,
                CheckedContinuation<SinkWake, Never>?
            )? in
            guard !state.isTerminated else { return nil }
            state.isTerminated = true
            // The transport hears of it only if it had not finished the body itself.
            let onTermination = state.end == nil ? state.onTermination : nil
            if state.end == nil { state.end = .failed(error) }
            _ = state.takeAllChunks()
            state.sink = nil
            state.onDemand = nil
            state.onTermination = nil
            defer {
                state.reader = nil
                state.writer = nil
                state.sinkWaiter = nil
            }
            return (onTermination, state.reader, state.writer, state.sinkWaiter)
        }
        guard let (onTermination, reader, writer, sinkWaiter) = ended else { return }
        reader?.resume()
        writer?.resume()
        sinkWaiter?.resume(returning: .ended(.failure(error)))
        onTermination?(error)
    }

    /// Lets a paused writer go on once the reader has taken half of the high watermark.
    private func resumeWriterIfCaughtUp() {
        let resumed = state.withLock { state -> (CheckedContinuation<Void, Never>?, (@Sendable () -> Void)?)? in
            guard state.isPaused, state.bufferedBytes <= highWatermark / 2 else { return nil }
            state.isPaused = false
            defer { state.writer = nil }
            return (state.writer, state.onDemand)
        }
        guard let (writer, onDemand) = resumed else { return }
        writer?.resume()
        onDemand?()
    }
}
