import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session a ``URLSessionTransport`` runs its tasks on, and where tasks are started and cancelled.
///
/// On Apple platforms that is the transport's own session, each task with its handler as its
/// delegate. On Linux, where per-task delegates get little but redirects, the session must have a
/// ``SessionDelegate`` and an ``InlineOperationQueue``: a session made by
/// ``URLSessionTransport/init(configuration:)`` has both; for any other session (`URLSession.shared`,
/// a stub's, one with a delegate of its own) the engine is a companion session made once from its
/// configuration, whose delegate asks the original one about challenges and redirects.
struct SessionEngine: Sendable {
    let session: URLSession
    #if canImport(FoundationNetworking)
        let delegate: SessionDelegate

        /// Where the session's tasks are started and cancelled, in order,
        /// on threads shared with every other session (see ``ControlQueue``): each of those calls
        /// waits for the session's work queue.
        var controlQueue: ControlQueue { delegate.controlQueue }
    #else
        /// Where tasks are started when others are under way, and cancelled.
        var controlQueue: DispatchQueue { Self.sharedControlQueue }
        private static let sharedControlQueue = DispatchQueue(label: "NetworkLayer.transport.control", attributes: .concurrent)
    #endif

    /// The engine for `session`.
    static func engine(for session: URLSession) -> SessionEngine {
        #if canImport(FoundationNetworking)
            if let delegate = session.delegate as? SessionDelegate, session.delegateQueue is InlineOperationQueue {
                return SessionEngine(session: session, delegate: delegate)
            }
            return companion(for: session)
        #else
            return SessionEngine(session: session)
        #endif
    }

    /// Connects `handler` to `task`'s callbacks, before the task starts.
    func register(_ handler: SessionTaskHandler, for task: URLSessionTask) {
        #if canImport(FoundationNetworking)
            delegate.register(handler, for: task)
        #else
            task.delegate = handler
        #endif
    }

    /// Disconnects a task that will not be started.
    func unregister(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
            delegate.unregister(task)
        #endif
    }

    // MARK: Starting and cancelling

    /// Runs `start`, which creates and resumes a task. Creating and resuming wait for
    /// FoundationNetworking's work queue, which many requests at once keep busy, and that wait must
    /// not hold the caller: on Linux `start` always runs on ``controlQueue``; on Apple platforms a
    /// request alone in flight starts on its caller's thread, which saves the hop.
    ///
    /// The work queue every Linux session waits for is the process's, not the session's: a delegate
    /// callback that kept one session's queue busy for 3 s held another session's `dataTask(with:)`
    /// for 2.5 s. No caller can tell it is free, so none waits for it: a lone start on the caller's
    /// thread, while another client's 50 answers of 5,000 interim heads kept it busy, answered its
    /// caller 16 to 146 s after a 2 s timeout that had fired on time, since the caller's task could
    /// not go on until the start returned.
    func start(isAlone: Bool, _ start: @escaping @Sendable () -> Void) {
        #if canImport(FoundationNetworking)
            controlQueue.async(execute: start)
        #else
            if isAlone { start() } else { controlQueue.async(execute: start) }
        #endif
    }

    /// Cancels `task` on ``controlQueue``: on a callback's thread, or from many threads at once,
    /// cancelling can deadlock FoundationNetworking; the control queue also keeps a burst of
    /// cancellations from taking a thread each.
    func cancel(_ task: URLSessionTask) {
        controlQueue.async { task.cancel() }
    }
}

#if canImport(FoundationNetworking)
    extension SessionEngine {
        /// A session for the transport's tasks like `source`, made once per source and kept while it lives.
        private static func companion(for source: URLSession) -> SessionEngine {
            let key = ObjectIdentifier(source)
            let (engine, stale) = companions.withLock { companions -> (SessionEngine, [URLSession]) in
                var stale: [URLSession] = []
                for (key, companion) in companions where companion.source == nil {
                    stale.append(companion.engine.session)
                    companions[key] = nil
                }
                if let companion = companions[key], companion.source === source { return (companion.engine, stale) }
                if let previous = companions[key] { stale.append(previous.engine.session) }
                let configuration = (source.configuration.copy() as? URLSessionConfiguration) ?? source.configuration
                // With a cache, cancelling many requests at once can crash FoundationNetworking.
                configuration.urlCache = nil
                configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
                let delegate = SessionDelegate(forwardingTo: source.delegate)
                let engine = SessionEngine(
                    session: URLSession(configuration: configuration, delegate: delegate, delegateQueue: InlineOperationQueue()),
                    delegate: delegate)
                companions[key] = Companion(source: source, engine: engine)
                return (engine, stale)
            }
            stale.forEach { $0.finishTasksAndInvalidate() }
            return engine
        }

        private struct Companion: Sendable {
            weak var source: URLSession?
            let engine: SessionEngine
        }

        /// The companion of each session that is not a transport session itself.
        private static let companions = Locked<[ObjectIdentifier: Companion]>([:])
    }
#endif
