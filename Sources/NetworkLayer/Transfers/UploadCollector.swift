import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Observes an upload: reports progress as the body goes out, and keeps the response body (an
/// API's answer, small) until completion.
final class UploadCollector: TransferObserver {
    private let continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), APIError>, Never>
    private let progress: ProgressReporter
    private let size: Int64?
    private let body = Locked(Data())

    init(
        size: Int64?,
        progress: ProgressReporter,
        continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), APIError>, Never>
    ) {
        self.size = size
        self.progress = progress
        self.continuation = continuation
    }

    func transfer(_ transfer: Transfer, didReceive response: HTTPURLResponse) {}

    func transfer(_ transfer: Transfer, didReceive data: Data) {
        body.withLock { $0.append(data) }
    }

    func transfer(_ transfer: Transfer, didSend totalBytesSent: Int64, of expected: Int64) {
        progress.report(totalBytesSent, of: expected > 0 ? expected : size)
    }

    func transfer(_ transfer: Transfer, didCompleteWith result: Result<HTTPURLResponse, APIError>) {
        if case .success = result, let size {
            progress.finish(total: size)
        }
        let body = body.withLock { $0 }
        let continuation = continuation
        progress.afterReports { continuation.resume(returning: result.map { (body, $0) }) }
    }
}
