import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Transfer {
    /// Runs a request as a transfer on a session derived from `source`, and waits for the first
    /// result the observer gives its continuation: completion for uploads and downloads, the
    /// response head for streams. Cancelling the Swift task until then cancels the transfer.
    ///
    /// The request's own timeout, or else `source`'s, becomes the transfer's idle timeout (see
    /// ``Transfer``); FoundationNetworking's timer, which cuts timeouts to whole seconds and would
    /// count time the reader is behind, is set out of the way.
    static func run<Value: Sendable>(
        _ request: URLRequest,
        body: PreparedBody,
        on source: URLSession,
        observer makeObserver: (CheckedContinuation<Result<Value, APIError>, Never>) -> any TransferObserver
    ) async -> Result<Value, APIError> {
        let session: TransferSession
        do {
            session = try TransferSession.acquire(for: source)
        } catch {
            return .failure(error)
        }
        let timeout = source.effectiveTimeout(for: request)
        var request = request
        request.timeoutInterval = Self.foundationTimeout
        let slot = Locked(Slot.waiting)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = Transfer(session: session, timeout: timeout, observer: makeObserver(continuation))
                let wasCancelled = slot.withLock { slot -> Bool in
                    if case .cancelled = slot { return true }
                    slot = .started(transfer)
                    return false
                }
                if wasCancelled || Task.isCancelled { transfer.cancel(.cancelled) }
                transfer.start { [request] session in body.makeTask(for: request, on: session) }
            }
        } onCancel: {
            let transfer = slot.withLock { slot -> Transfer? in
                if case .started(let transfer) = slot { return transfer }
                slot = .cancelled
                return nil
            }
            transfer?.cancel(.cancelled)
        }
    }

    /// A week: FoundationNetworking's own timeout never fires before the transfer's idle timeout.
    private static let foundationTimeout: TimeInterval = 7 * 24 * 60 * 60

    private enum Slot {
        case waiting
        case cancelled
        case started(Transfer)
    }
}
