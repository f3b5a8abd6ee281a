import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session that runs one transfer at a time, with its own delegate and ``TransferGate``.
///
/// Downloads, streams and uploads need delegate callbacks (FoundationNetworking gives a session's
/// delegate no data for completion-handler tasks, and gives per-task delegates little but
/// redirects), and holding one transfer back must not hold back any other. So each runs alone on a
/// session built from the client's session's configuration: same protocol classes (stubs
/// included), headers, cookies, credentials and timeouts, but no URL cache. Sessions are kept in
/// a pool per client session and reused, keeping their connections, and are never torn down
/// while the client's session lives, since short-lived sessions can crash FoundationNetworking.
final class TransferSession: Sendable {
    let session: URLSession
    let delegate: TransferDelegate
    let gate: TransferGate
    /// Where tasks are created, resumed and cancelled. Those calls wait for FoundationNetworking's
    /// work queue (`workQueue.sync`), which a busy session keeps busy: they must not hold one of
    /// the few threads of Swift's cooperative pool or of the global queues meanwhile.
    let controlQueue = DispatchQueue(label: "NetworkLayer.transfer.control")
    fileprivate let poolKey: ObjectIdentifier

    fileprivate init(configuration: URLSessionConfiguration, poolKey: ObjectIdentifier) {
        let gate = TransferGate()
        let delegate = TransferDelegate()
        #if canImport(FoundationNetworking)
            let queue: OperationQueue = BackpressureQueue(gate: gate)
        #else
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
        #endif
        self.gate = gate
        self.delegate = delegate
        self.poolKey = poolKey
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    /// A transfer session for `source`, idle in its pool or new.
    /// - Throws: ``APIError/invalidRequest(_:)`` when `source` has a delegate of its own, which a
    ///   transfer session would bypass (a certificate check, say).
    static func acquire(for source: URLSession) throws(APIError) -> TransferSession {
        guard source.delegate == nil || source.delegate is SessionDelegate else {
            throw .invalidRequest(
                "uploads from files, multipart forms, downloads and streams run on sessions NetworkLayer derives from the "
                    + "client's, and this client's session has its own delegate, which they would bypass; use NetworkClient(), "
                    + "NetworkClient(configuration:) or a session without a delegate"
            )
        }
        let key = ObjectIdentifier(source)
        let (reused, stale) = pools.withLock { pools -> (TransferSession?, [TransferSession]) in
            var stale: [TransferSession] = []
            for (key, pool) in pools where pool.source == nil {
                stale += pool.idle
                pools[key] = nil
            }
            if pools[key]?.source !== source {
                stale += pools[key]?.idle ?? []
                pools[key] = Pool(source: source)
            }
            return (pools[key]?.idle.popLast(), stale)
        }
        stale.forEach { $0.session.finishTasksAndInvalidate() }
        if let reused { return reused }
        let configuration = (source.configuration.copy() as? URLSessionConfiguration) ?? source.configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return TransferSession(configuration: configuration, poolKey: key)
    }

    /// Puts the session back in its pool once its transfer has completed, ready for the next.
    func release() {
        gate.reset()
        let kept = Self.pools.withLock { pools -> Bool in
            guard pools[poolKey]?.source != nil else { return false }
            pools[poolKey]?.idle.append(self)
            return true
        }
        if !kept { session.finishTasksAndInvalidate() }
    }

    private struct Pool {
        weak var source: URLSession?
        var idle: [TransferSession] = []
    }

    /// The idle transfer sessions of each client session that has run a transfer.
    private static let pools = Locked<[ObjectIdentifier: Pool]>([:])
}
