import Foundation

/// How far an upload or a download has got: bytes sent or received, and how many are expected.
///
/// Reported to the `progress` closure of ``APIClient/upload(for:as:progress:)`` and
/// ``APIClient/download(for:to:progress:)``: `completedBytes` only grows from one report
/// to the next, and a transfer that succeeds always ends with a report where `completedBytes ==
/// expectedBytes` (``fractionCompleted`` is then `1`).
public struct TransferProgress: Sendable, Hashable {
    /// The bytes sent (uploads) or received (downloads) so far.
    public var completedBytes: Int64
    /// The bytes expected in all, or `nil` while unknown (a download without `Content-Length`).
    ///
    /// For a compressed download this is the `Content-Length` of the compressed body, which is
    /// smaller than the bytes received; ``fractionCompleted`` is capped at `1`.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    /// - Parameters:
    ///   - completedBytes: The bytes transferred so far.
    ///   - expectedBytes: The bytes expected in all, or `nil` when unknown.
    init(completedBytes: Int64, expectedBytes: Int64?) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// `completedBytes / expectedBytes` between `0` and `1`, or `nil` while the size is unknown.
    /// An expected size of zero counts as complete.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }
}

/// Forwards progress to a caller's closure: only reports that move forward, and a final one at 100 %.
///
/// The closure runs on a serial queue of its own, in order, so that the caller's code never holds
/// up the thread that delivers the body.
/// ``delivered()`` lets the transfer's answer wait for the last report.
struct ProgressReporter: Sendable {
    private let handler: (@Sendable (TransferProgress) -> Void)?
    private let last = Locked<TransferProgress?>(nil)
    private let queue = DispatchQueue(label: "NetworkLayer.progress")

    init(_ handler: (@Sendable (TransferProgress) -> Void)?) {
        self.handler = handler
    }

    /// Reports `completed` of `expected` bytes (`nil` when unknown), unless that would go backwards (a
    /// re-sent upload starts from zero again) or repeat the last report.
    func report(_ completed: Int64, of expected: Int64?) {
        guard let handler else { return }
        let progress = TransferProgress(completedBytes: completed, expectedBytes: expected)
        let isNews = last.withLock { last -> Bool in
            if let previous = last,
                completed < previous.completedBytes || (completed == previous.completedBytes && expected == previous.expectedBytes)
            {
                return false
            }
            last = progress
            return true
        }
        if isNews { queue.async { handler(progress) } }
    }

    /// Reports that all `total` bytes are done.
    func finish(total: Int64) {
        report(total, of: total)
    }

    /// Returns once every report made so far has been delivered, so that the last one comes before the answer.
    func delivered() async {
        guard handler != nil else { return }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}
