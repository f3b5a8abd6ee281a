import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `URLSessionTask` of a ``URLSessionTransport``, from creation to completion: the only place
/// in NetworkLayer that creates tasks, and the one state machine for how an exchange ends
/// (completion, cancellation, the idle deadline, the reader giving up).
///
/// It hears the task's callbacks (as its delegate on Apple platforms; through ``SessionDelegate`` on
/// Linux), keeps the time of the last byte sent or received, and either collects the body or streams
/// it into a ``ResponseBody`` whose reader can slow the transfer down (see ``pause()``).
///
/// The rules of its state machine (`idle` → `running` → `completed`, or `ended` by this side):
/// - Every change of phase happens under the lock, and whatever it releases (the waiter, the writer,
///   the deadline, the task to cancel) is taken out under it and used after: each is used once.
/// - A callback that comes when the phase is not `running` (after cancellation, the idle deadline,
///   the reader giving up, or completion; late, twice or out of order) does nothing: it neither
///   re-enters the handler nor resumes anything.
/// - ``end(_:)`` may be called any number of times from any thread: the first wins; a task that is
///   created after it is cancelled at once and never resumed.
/// - An interim `1xx` head is skipped and is no activity; a second final head replaces the first when
///   collecting and fails a stream with ``APIError/invalidResponse``.
/// - Completion without a head, or with only an interim one, fails with ``APIError/invalidResponse``.
final class SessionTaskHandler: NSObject, URLSessionDataDelegate, Sendable {
    /// What the exchange gives back: the response head, a redirect's included, and its body.
    typealias Outcome = (response: HTTPURLResponse, body: ResponseBody)
    /// The caller of ``run(_:bodyFile:isAlone:)``, resumed exactly once: the state machine hands it out
    /// once, under the lock, so the checks of a `CheckedContinuation` (an allocation and its own
    /// bookkeeping on every request) would find nothing.
    typealias Waiter = UnsafeContinuation<Result<Outcome, APIError>, Never>

    /// Whether the body is collected before the outcome is given, or streamed after the head.
    enum Mode: Sendable {
        case collect
        case stream
    }

    /// Where the exchange is: not started, running its task, ended by this side, or completed by the session.
    enum Phase {
        case idle
        case running(URLSessionTask)
        case ended(APIError)
        case completed
    }

    /// What the handler knows of its exchange, behind the lock of ``state``.
    struct State {
        var phase = Phase.idle
        var waiter: Waiter?
        var response: HTTPURLResponse?
        var collected = CollectedBody()
        var writer: ResponseBody.Writer?
        /// Uptime of the last byte sent or received, in nanoseconds.
        var lastActivity: UInt64 = 0
        var deadline: UInt64?
        /// Whether the reader has asked the transfer to wait, which the idle timeout does not count.
        var isPausedByReader = false
        /// The size of a body sent from a file, for progress when the session cannot tell it (Linux).
        var bodySize: Int64?
    }

    /// What a completion takes out of ``State``: the whole state would be copied for four fields.
    private struct Finished {
        var waiter: Waiter?
        var response: HTTPURLResponse?
        var collected: CollectedBody
        var writer: ResponseBody.Writer?
    }

    private let mode: Mode
    private let engine: SessionEngine
    /// The idle timeout in nanoseconds, `nil` for none.
    let timeout: UInt64?
    private let sendProgress: (@Sendable (Int64, Int64?) -> Void)?
    /// The most bytes of body collected before the exchange fails (``Mode/collect`` only).
    let maximumBodySize: Int64?
    /// The request's method: a `HEAD`'s `Content-Length` announces no body.
    let method: String?
    /// The exchange's state: every change of phase happens under its lock.
    let state = Locked(State())
    #if canImport(FoundationNetworking)
        /// Where the body goes once a reader has fallen behind, since a Linux transfer cannot pause.
        let spool = Locked<BodySpool?>(nil)
    #endif

    /// - Parameters:
    ///   - timeout: The idle timeout in seconds, `nil` for none.
    ///   - maximumBodySize: The most bytes of body collected, `nil` for no limit; read in ``Mode/collect`` only.
    ///   - method: The request's method.
    init(
        mode: Mode, engine: SessionEngine, timeout: TimeInterval?, sendProgress: (@Sendable (Int64, Int64?) -> Void)?,
        maximumBodySize: Int64? = nil, method: String? = nil
    ) {
        self.mode = mode
        self.engine = engine
        self.timeout = timeout.map { UInt64(($0 * 1_000_000_000).rounded(.up)) }
        self.sendProgress = sendProgress
        self.maximumBodySize = mode == .collect ? maximumBodySize : nil
        self.method = method
    }

    /// Creates the task for `request` on `session`, starts it, and waits for the outcome: the head
    /// when streaming, everything when collecting. Cancelling the calling task until then ends it.
    func run(_ request: URLRequest, bodyFile: URL?, isAlone: Bool) async -> Result<Outcome, APIError> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let isEnded = state.withLock { state -> APIError? in
                    if case .ended(let reason) = state.phase { return reason }
                    state.waiter = continuation
                    // The wait to start counts, as time queued behind other requests does in URLSession.
                    state.lastActivity = Self.now()
                    if let timeout { state.deadline = scheduleDeadline(at: state.lastActivity + timeout) }
                    return nil
                }
                if let isEnded {
                    continuation.resume(returning: .failure(isEnded))
                    return
                }
                engine.start(isAlone: isAlone) { [self] in start(request, bodyFile: bodyFile) }
            }
        } onCancel: {
            end(.cancelled, unlessHeadDelivered: true)
        }
    }

    /// The task that sends `request` with `file` as its body.
    ///
    /// On Linux it is a data task that reads the file through an `InputStream`, with the file's
    /// `Content-Length`. An upload task reads a file body through `DispatchIO`, and when the
    /// connection ends while a read is under way, the read's completion unpauses a transfer libcurl
    /// has let go of, and a `try!` in FoundationNetworking traps on libcurl's
    /// `CURLE_BAD_FUNCTION_ARGUMENT` (`EasyHandle.swift:484`; 4 of 40 uploads of 5 MB reset by the
    /// server after 64 KiB). A stream is read within libcurl's own callback and never pauses, and it is
    /// faster (256 MiB over loopback: 0.60 s against 1.63 s). libcurl sends a stream chunked unless the
    /// request has a `Transfer-Encoding` header; one whose value is blank is neither sent nor obeyed,
    /// so the file goes out as it is, after its `Content-Length`.
    private func makeTask(for request: URLRequest, file: URL) -> URLSessionTask {
        #if canImport(FoundationNetworking)
            var request = request
            if let size = Self.size(of: file), let stream = InputStream(url: file) {
                request.httpBodyStream = stream
                request.setValue(String(size), forHTTPHeaderField: "Content-Length")
                request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
                state.withLock { $0.bodySize = size }
                return engine.session.dataTask(with: request)
            }
        #endif
        return engine.session.uploadTask(with: request, fromFile: file)
    }

    #if canImport(FoundationNetworking)
        /// The size of `file` in bytes, `nil` when it cannot be read.
        private static func size(of file: URL) -> Int64? {
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value
        }
    #endif

    /// Creates the task and resumes it, unless the exchange has ended meanwhile.
    private func start(_ request: URLRequest, bodyFile: URL?) {
        guard case .idle = state.withLock({ $0.phase }) else { return }
        let task = bodyFile.map { makeTask(for: request, file: $0) } ?? engine.session.dataTask(with: request)
        engine.register(self, for: task)
        let started = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            state.phase = .running(task)
            return true
        }
        guard started else {
            engine.unregister(task)
            // A task that was created stays with its session until it completes.
            task.cancel()
            return
        }
        task.resume()
    }

    /// Ends the exchange as `reason` unless it has ended already: the waiter or the reader gets the
    /// error, and the task is cancelled (on the engine's queue: cancelling on a callback's thread can
    /// deadlock FoundationNetworking). With `unlessHeadDelivered` (the caller's cancellation), a streamed
    /// body whose head was handed over is left to its reader, who cancels it by reading in a cancelled
    /// task or by dropping it.
    func end(_ reason: APIError, unlessHeadDelivered: Bool = false) {
        let ended = state.withLock {
            state -> (URLSessionTask?, Waiter?, ResponseBody.Writer?)? in
            switch state.phase {
            case .idle:
                state.phase = .ended(reason)
                if let deadline = state.deadline { DeadlineScheduler.shared.cancel(deadline) }
                defer { state.waiter = nil }
                return (nil, state.waiter, nil)
            case .running(let task):
                if unlessHeadDelivered, state.waiter == nil { return nil }
                state.phase = .ended(reason)
                if let deadline = state.deadline { DeadlineScheduler.shared.cancel(deadline) }
                defer {
                    state.waiter = nil
                    state.writer = nil
                }
                return (task, state.waiter, state.writer)
            case .ended, .completed:
                return nil
            }
        }
        guard let (task, waiter, writer) = ended else { return }
        waiter?.resume(returning: .failure(reason))
        writer?.finish(throwing: reason)
        if let task { engine.cancel(task) }
    }

    // MARK: Callbacks

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        didReceive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        didReceive(data, of: dataTask)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let sending = state.withLock { state -> (isRunning: Bool, bodySize: Int64?) in
            guard case .running = state.phase else { return (false, nil) }
            state.lastActivity = Self.now()
            return (true, state.bodySize)
        }
        guard sending.isRunning else { return }
        sendProgress?(totalBytesSent, totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : sending.bodySize)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        didComplete(task, error: error)
    }

    #if !canImport(FoundationNetworking)
        /// Hands every redirect back as the response: the client follows it by its ``RedirectPolicy``
        /// (on Linux, ``SessionDelegate`` does the same).
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    #endif

    private func didReceive(_ urlResponse: URLResponse) {
        guard let response = urlResponse as? HTTPURLResponse else { return end(.invalidResponse) }
        // An interim `103 Early Hints` or `102 Processing` reaches here as a head of its own (Linux):
        // skipped, and not activity, or a `102` every half second would outlive the idle timeout.
        guard !HTTPResponse.isInterim(response.statusCode) else { return }
        if let conflict = Self.conflictingContentLength(response) { return end(conflict) }
        let head = state.withLock { state -> Result<ResponseBody?, APIError>? in
            guard case .running = state.phase else { return nil }
            state.lastActivity = Self.now()
            if mode == .collect {
                // A second head (multipart/x-mixed-replace, say) replaces the first and its body.
                state.response = response
                state.collected = CollectedBody(limit: maximumBodySize)
                if let tooLarge = announcedTooLarge(response) { return .failure(tooLarge) }
                return nil
            }
            guard state.writer == nil else { return .failure(.invalidResponse) }
            state.response = response
            let (body, writer) = makeBody()
            state.writer = writer
            return .success(body)
        }
        switch head {
        case .success(let body?): deliver((response, body))
        case .failure(let error): end(error)
        case .success(nil), nil: break
        }
    }

    private func didReceive(_ data: Data, of task: URLSessionTask) {
        var tooLarge: APIError?
        let writer = state.withLock { state -> ResponseBody.Writer? in
            guard case .running = state.phase else { return nil }
            state.lastActivity = Self.now()
            if mode == .collect {
                // Counted as libcurl hands it over, decoded: a body that inflates stops at the limit too.
                let received = Int64(state.collected.count) + Int64(data.count)
                if let limit = maximumBodySize, received > limit {
                    tooLarge = .responseTooLarge(.inMemory, limit: limit, received: received)
                } else {
                    state.collected.append(data, announcedLength: Self.announcedLength(of: state.response))
                }
                return nil
            }
            return state.writer
        }
        if let tooLarge { return end(tooLarge) }
        guard let writer else {
            // Data before any head: take the task's head (unless it is interim, or not HTTP), then hand
            // the data to its body. Once the exchange has ended there is no body to hand it to.
            if mode == .stream, state.withLock({ $0.response == nil }), let response = task.response {
                didReceive(response)
                if let writer = state.withLock({ $0.writer }) { feed(data, to: writer) }
            }
            return
        }
        feed(data, to: writer)
    }

    private func didComplete(_ task: URLSessionTask, error: (any Error)?) {
        #if canImport(Security) && !canImport(FoundationNetworking)
            // Taken first, so that a task that ended otherwise leaves no refusal behind.
            let refusal = TLSChallengeHandler.refusal(of: task)
        #endif
        let finished = state.withLock { state -> Finished? in
            guard case .running = state.phase else { return nil }
            state.phase = .completed
            if let deadline = state.deadline { DeadlineScheduler.shared.cancel(deadline) }
            defer {
                state.waiter = nil
                state.writer = nil
                state.collected = CollectedBody()
            }
            return Finished(waiter: state.waiter, response: state.response, collected: state.collected, writer: state.writer)
        }
        guard let finished else { return }
        let response = finished.response ?? (task.response as? HTTPURLResponse).flatMap { HTTPResponse.isInterim($0.statusCode) ? nil : $0 }
        var failure: APIError?
        if let error {
            #if canImport(FoundationNetworking)
                if let challenged = SessionDelegate.challengeResponse(of: task, error: error) {
                    return complete(finished, response: challenged, body: Data())
                }
            #endif
            failure = Self.apiError(error, headReceived: finished.response != nil)
            #if canImport(Security) && !canImport(FoundationNetworking)
                // A chain the TLS policy refused ends as a cancellation: named by its cause instead.
                if let refusal { failure = refusal }
            #endif
        } else if response == nil {
            failure = .invalidResponse
        }
        if let failure {
            finished.waiter?.resume(returning: .failure(failure))
            finish(finished.writer, throwing: failure)
            return
        }
        if let response { complete(finished, response: response, body: finished.collected.joined()) }
    }

    private func complete(_ finished: Finished, response: HTTPURLResponse, body: Data) {
        if let writer = finished.writer {
            finish(writer, throwing: nil)
        } else {
            finished.waiter?.resume(returning: .success((response, ResponseBody(body))))
        }
    }

    /// Resumes the waiter with the outcome, once.
    private func deliver(_ outcome: Outcome) {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .success(outcome))
    }

    /// Counts a redirect, which reaches the session's delegate rather than this handler (Linux), as activity.
    func noteActivity() {
        _ = touchIfRunning()
    }

    /// Counts a callback as activity; returns whether the task is running.
    private func touchIfRunning() -> Bool {
        state.withLock { state in
            guard case .running = state.phase else { return false }
            state.lastActivity = Self.now()
            return true
        }
    }
}
