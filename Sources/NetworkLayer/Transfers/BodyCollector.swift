import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Observes a transfer whose response body is kept in memory: reports the progress of the body
/// sent (an upload) or received, and hands over the body on completion.
///
/// The buffer is reserved from the response's `Content-Length` when it arrives, so that a large
/// body is written once into its final place instead of being regrown and copied; untouched pages
/// of a reservation cost no resident memory, and a reservation is capped at ``maximumReservation``
/// whatever the server claims.
final class BodyCollector: TransferObserver {
    /// Which body the progress reports follow.
    enum Direction {
        /// The request body going out, of `size` bytes when known.
        case sent(size: Int64?)
        /// The response body coming in, against its `Content-Length` when there is one.
        case received
    }

    /// The most bytes reserved up front for a body, whatever its `Content-Length` says: 1 GiB.
    static let maximumReservation = 1 << 30

    private let continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), APIError>, Never>
    private let progress: ProgressReporter
    private let direction: Direction
    private let state = Locked(State())

    private struct State {
        var body = Data()
        var expected: Int64?
    }

    init(
        direction: Direction,
        progress: ProgressReporter,
        continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), APIError>, Never>
    ) {
        self.direction = direction
        self.progress = progress
        self.continuation = continuation
    }

    func transfer(_ transfer: Transfer, didReceive response: HTTPURLResponse) {
        let expected = response.expectedContentLength > 0 ? response.expectedContentLength : nil
        state.withLock { state in
            state.expected = expected
            if let expected { state.body.reserveCapacity(Int(min(expected, Int64(Self.maximumReservation)))) }
        }
        if case .received = direction { progress.report(0, of: expected) }
    }

    func transfer(_ transfer: Transfer, didReceive data: Data) {
        let (received, expected) = state.withLock { state in
            state.body.append(data)
            return (Int64(state.body.count), state.expected)
        }
        // A body decoded on the way (gzip) can outgrow its Content-Length: the total is then unknown.
        if case .received = direction { progress.report(received, of: expected.flatMap { $0 >= received ? $0 : nil }) }
    }

    func transfer(_ transfer: Transfer, didSend totalBytesSent: Int64, of expected: Int64) {
        if case .sent(let size) = direction { progress.report(totalBytesSent, of: expected > 0 ? expected : size) }
    }

    func transfer(_ transfer: Transfer, didCompleteWith result: Result<HTTPURLResponse, APIError>) {
        let body = state.withLock { state in
            defer { state.body = Data() }
            return state.body
        }
        if case .success = result {
            switch direction {
            case .sent(let size?): progress.finish(total: size)
            case .sent(nil): break
            case .received: progress.finish(total: Int64(body.count))
            }
        }
        let continuation = continuation
        progress.afterReports { continuation.resume(returning: result.map { (body, $0) }) }
    }
}
