#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    /// The delegate of every session a ``URLSessionTransport`` runs tasks on, on Linux: it hands each
    /// task's callbacks to its ``SessionTaskHandler``, and steers FoundationNetworking around two traps.
    ///
    /// - A 401 or 407 carrying a challenge (`WWW-Authenticate: Basic`, say) with no credential makes a
    ///   task hang past every timeout. The challenge is cancelled instead, and the handler turns the
    ///   cancellation back into the 401 response (its body is lost).
    /// - A redirect would keep every header, credentials included, whatever its new origin, and send
    ///   the body of a 307 or 308 empty. Every redirect is handed back as the response instead, and
    ///   the client follows it by its ``RedirectPolicy``.
    ///
    /// FoundationNetworking gives per-task delegates little but redirects, so the handlers are found by
    /// task identifier. A session that had a delegate of its own before (see ``SessionEngine``) keeps
    /// it: authentication challenges go to it.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let handlers = Locked<[Int: SessionTaskHandler]>([:])
        /// Where the session's tasks are started and cancelled, and challenges and redirects answered.
        let controlQueue = ControlQueue()
        /// The delegate of the session this one stands in for, asked what it would decide.
        private let forwardee: (any URLSessionTaskDelegate)?

        init(forwardingTo forwardee: (any URLSessionDelegate)? = nil) {
            self.forwardee = forwardee as? any URLSessionTaskDelegate
        }

        func register(_ handler: SessionTaskHandler, for task: URLSessionTask) {
            handlers.withLock { $0[task.taskIdentifier] = handler }
        }

        func unregister(_ task: URLSessionTask) {
            _ = handlers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        }

        private func handler(for task: URLSessionTask) -> SessionTaskHandler? {
            handlers.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let handler = handler(for: dataTask) else { return completionHandler(.allow) }
            handler.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            handler(for: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didSendBodyData bytesSent: Int64,
            totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            handler(for: task)?.urlSession(
                session, task: task, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                totalBytesExpectedToSend: totalBytesExpectedToSend)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let handler = handlers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            handler?.urlSession(session, task: task, didCompleteWithError: error)
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Default handling of an HTTP challenge is what hangs; credentials travel in the
            // Authorization header (a credential storage lookup does not match challenges on Linux).
            let isHTTPAuthentication = Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod)
            let decide: @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void = { disposition, credential in
                let safe = isHTTPAuthentication && disposition == .performDefaultHandling ? .cancelAuthenticationChallenge : disposition
                // Answered off this thread: the answer goes back into the session's work queue.
                self.answer(task) { completionHandler(safe, credential) }
            }
            guard let forwardee else { return decide(.performDefaultHandling, nil) }
            forwardee.urlSession(session, task: task, didReceive: challenge, completionHandler: decide)
        }

        /// Hands every redirect back as the response, for the client to follow by its ``RedirectPolicy``:
        /// FoundationNetworking's own redirect keeps every header whatever the new origin, and sends
        /// the body of a 307 or 308 empty.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            handler(for: task)?.noteActivity()
            answer(task) { completionHandler(nil) }
        }

        /// Gives `task` the answer to a redirect or a challenge, on ``controlQueue``, unless the task has
        /// been cancelled since it asked: FoundationNetworking then stops waiting for the answer and
        /// traps when it comes ("Received callback for HTTP redirection, but we're not waiting for it").
        /// Every cancellation goes through ``controlQueue`` too (``SessionEngine/cancel(_:)``), so none
        /// can fall between the check and the answer; a cancelled task has completed with its error
        /// already, and the answer is dropped.
        private func answer(_ task: URLSessionTask, _ deliver: @escaping @Sendable () -> Void) {
            controlQueue.async {
                guard task.state == .running else { return }
                deliver()
            }
        }

        /// The challenges whose default handling hangs; others (server trust) keep it.
        private static let httpAuthenticationMethods: Set<String> = [
            NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodDefault,
            NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
        ]

        /// The 401 or 407 behind a cancellation that this delegate made by refusing an authentication
        /// challenge: the response the server actually sent (its body is lost).
        static func challengeResponse(of task: URLSessionTask, error: any Error) -> HTTPURLResponse? {
            guard (error as? URLError)?.code == .cancelled,
                let response = task.response as? HTTPURLResponse,
                response.statusCode == 401 || response.statusCode == 407
            else { return nil }
            return response
        }
    }

    /// The delegate queue of a Linux transport session: it runs each callback at once, on the thread
    /// that delivers it (the session's own work queue).
    ///
    /// The callbacks only move bytes (into a buffer, a file or a reader's queue) and never wait for
    /// the session, so running them in place costs no thread hop per callback; and a consumer that
    /// writes to a slow disk holds the transfer back, as FoundationNetworking's own download tasks do,
    /// instead of piling the body up in memory.
    final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
        // `@unchecked` restates OperationQueue's own conformance, which every subclass must; it adds
        // no state.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif
