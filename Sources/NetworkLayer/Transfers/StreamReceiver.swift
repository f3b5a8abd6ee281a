import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Observes a streamed response: answers the head (the status, checked before any element) and
/// then hands each chunk to the ``ResponseStream``'s buffer, which is bounded: when more than
/// `bufferLimit` bytes wait unread, the transfer ends with ``APIError/bufferLimitExceeded(_:)``.
///
/// The reader is not waited for: on Linux, holding the transfer back would hold back every
/// `URLSession` of the process (see ``TransferGate``), for as long as the reader pleases.
final class StreamReceiver: TransferObserver {
    /// A response whose status was accepted, and the transfer that goes on reading its body.
    struct Head: Sendable {
        let response: HTTPResponse
        let transfer: Transfer
        let receiver: StreamReceiver
    }

    private enum Phase {
        case awaitingHead
        case streaming
        case rejected(HTTPURLResponse, Data)
        case finished(succeeded: Bool)
    }

    private let head: CheckedContinuation<Result<Head, APIError>, Never>
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation
    private let acceptableStatusCodes: Set<Int>
    private let body: PreparedBody
    /// The most bytes received and not yet read; also the longest line or event a reader of the stream buffers.
    let bufferLimit: Int
    private let phase = Locked(Phase.awaitingHead)
    private let unreadBytes = Locked(0)

    /// - Parameters:
    ///   - body: The request's body, whose temporary file (if any) is deleted when a transfer whose
    ///     status was accepted completes; after a failed attempt it stays, for a retry to send again.
    ///   - bufferLimit: The most bytes received and not yet read.
    init(
        acceptableStatusCodes: Set<Int>,
        body: PreparedBody,
        bufferLimit: Int,
        chunks: AsyncThrowingStream<Data, any Error>.Continuation,
        head: CheckedContinuation<Result<Head, APIError>, Never>
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.body = body
        self.bufferLimit = bufferLimit
        self.chunks = chunks
        self.head = head
    }

    /// Whether the whole body arrived and the stream finished without an error.
    var hasSucceeded: Bool {
        if case .finished(succeeded: true) = phase.withLock({ $0 }) { true } else { false }
    }

    func transfer(_ transfer: Transfer, didReceive response: HTTPURLResponse) {
        guard acceptableStatusCodes.contains(response.statusCode) else {
            phase.withLock { $0 = .rejected(response, Data()) }
            return
        }
        phase.withLock { $0 = .streaming }
        head.resume(returning: .success(Head(response: HTTPResponse(response, body: Data()), transfer: transfer, receiver: self)))
    }

    func transfer(_ transfer: Transfer, didReceive data: Data) {
        let rejection = phase.withLock { phase -> APIError? in
            switch phase {
            case .streaming:
                return nil
            case .rejected(let response, var body):
                body.append(data.prefix(DownloadWriter.rejectedBodyLimit - body.count))
                phase = .rejected(response, body)
                guard body.count >= DownloadWriter.rejectedBodyLimit else { return nil }
                let rejected = HTTPResponse(response, body: body)
                return .unacceptableStatusCode(rejected.statusCode, rejected)
            case .awaitingHead, .finished:
                return nil
            }
        }
        if let rejection {
            // The error needs no more of the body than this: stop reading it.
            transfer.cancel(.failed(rejection))
            return
        }
        guard case .streaming = phase.withLock({ $0 }) else { return }
        let unread = unreadBytes.withLock { unread in
            unread += data.count
            return unread
        }
        guard unread <= bufferLimit else {
            transfer.cancel(.failed(.bufferLimitExceeded(bufferLimit)))
            return
        }
        chunks.yield(data)
    }

    /// Counts bytes the reader has taken from the buffer.
    func didRead(_ count: Int) {
        unreadBytes.withLock { $0 -= count }
    }

    func transfer(_ transfer: Transfer, didCompleteWith result: Result<HTTPURLResponse, APIError>) {
        let previous = phase.withLock { phase in
            defer {
                if case .success = result { phase = .finished(succeeded: true) } else { phase = .finished(succeeded: false) }
            }
            return phase
        }
        switch previous {
        case .awaitingHead:
            // No response callback: an empty body, or a failure before any response.
            let accepted = result.flatMap { response -> Result<Head, APIError> in
                guard acceptableStatusCodes.contains(response.statusCode) else {
                    return .failure(.unacceptableStatusCode(response.statusCode, HTTPResponse(response, body: Data())))
                }
                return .success(Head(response: HTTPResponse(response, body: Data()), transfer: transfer, receiver: self))
            }
            if case .success = accepted { body.cleanUp() }
            head.resume(returning: accepted)
            finish(with: result)
        case .rejected(let response, let body):
            let rejected = HTTPResponse(response, body: body)
            head.resume(returning: .failure(.unacceptableStatusCode(rejected.statusCode, rejected)))
            chunks.finish()
        case .streaming:
            body.cleanUp()
            finish(with: result)
        case .finished:
            break
        }
    }

    private func finish(with result: Result<HTTPURLResponse, APIError>) {
        switch result {
        case .success: chunks.finish()
        case .failure(let error): chunks.finish(throwing: error)
        }
    }
}
