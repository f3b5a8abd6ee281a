#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1

    /// One request of an ``AsyncHTTPClientTransport``, from `execute` to its end: AsyncHTTPClient's
    /// delegate for it, and the one state machine for how it ends (completion, failure,
    /// cancellation, the idle deadline, the reader giving up).
    ///
    /// AsyncHTTPClient calls the delegate on the request's event loop, one call at a time. The body
    /// is collected as a ``CollectedBody`` (up to its limit: past it the exchange ends at once, and a
    /// `Content-Length` over it ends it at the head), or handed to a ``ResponseBody`` whose reader
    /// falling behind holds the next read back: ``didReceiveBodyPart(task:_:)`` answers with a future
    /// that completes once the reader has caught up, and AsyncHTTPClient reads no more of the socket
    /// until then. A gzip or deflate body is inflated here when the client does not inflate it itself,
    /// a slice at a time (see ``AsyncHTTPClientInflater``), each slice counted and delivered before
    /// the next is inflated.
    ///
    /// A request that fails before any response because its connection went away is sent again on
    /// another, up to ``maximumResends`` times (see ``AsyncHTTPClientFailure/mayResend(after:method:requestHeadSent:)``):
    /// AsyncHTTPClient reuses a pooled connection without checking that the server still holds it
    /// open, as curl does. Once any response has come (a redirect's too), only an idempotent request is;
    /// once the final head has come, none is: a body cut short fails.
    ///
    /// The rules of its state machine (`waiting` → `streaming` → `completed`, or `ended` by this side):
    /// - Every change of phase happens under the lock, and what it releases (the waiter, the writer, the
    ///   reader's demand, the files the body opened) is taken out under it and used once, after it.
    /// - A call of AsyncHTTPClient's that comes once the exchange is over (a late body part, a failure
    ///   after completion, the failure of a sending that was replaced by a resend) does nothing, and
    ///   a demand AsyncHTTPClient waits for is always fulfilled.
    /// - ``end(_:)`` may be called any number of times from any thread: the first wins, and fails
    ///   AsyncHTTPClient's task, which closes the connection.
    final class AsyncHTTPClientExchange: HTTPClientResponseDelegate, Sendable {
        typealias Response = Void
        /// The caller of ``run()``, resumed exactly once: the state machine hands it out once, under the lock.
        typealias Waiter = UnsafeContinuation<Result<TransportResponse, APIError>, Never>

        /// Whether the body is collected before the response is given, or streamed after the head.
        enum Mode: Sendable {
            case collect
            case stream
        }

        /// How many times a request whose connection went away before any response is sent again.
        static let maximumResends = 3

        /// The request, sent again as it is when its connection went away before any response.
        let request: HTTPClient.Request
        private let client: HTTPClient
        /// The loop AsyncHTTPClient runs this delegate on, when the exchange prefers one (see
        /// ``AsyncHTTPClientEventLoopAffinity``); `nil` for wherever AsyncHTTPClient likes.
        private let preferredLoop: (any EventLoop)?
        private let mode: Mode
        /// Whether the request has a body; a redirect before it went out whole ends the exchange.
        private let hasRequestBody: Bool
        /// Whether the request is a `HEAD`, whose response has no body whatever its head says.
        private let isHEAD: Bool
        /// The most bytes of body collected before the exchange fails (``Mode/collect`` only).
        let maximumBodySize: Int64?
        let timeout: UInt64?
        private let sendProgress: (@Sendable (Int64, Int64?) -> Void)?
        /// Whether the body can be sent again: not when it is a stream, which is read once.
        private let canResend: Bool
        /// The files the body's sendings opened, closed once the exchange ends; `nil` for a body not sent from a file.
        private let files: OpenedBodyFiles?
        /// Whether a gzip or deflate body is inflated here: the client does not inflate it itself.
        private let inflates: Bool
        /// The client's owner when the transport made the client: held so that the client outlives the exchange.
        private let owner: OwnedHTTPClient?
        let state = Locked(State())

        /// - Parameters:
        ///   - request: What to send.
        ///   - client: The client to send it through.
        ///   - preferredLoop: The loop AsyncHTTPClient runs this delegate on; `nil` for any.
        ///   - mode: Whether the body is collected or streamed.
        ///   - timeout: The idle timeout in seconds, `nil` for none.
        ///   - sendProgress: Told of the body going out.
        ///   - canResend: Whether the body can be sent again.
        ///   - files: Where the body's sendings register the files they open.
        ///   - maximumBodySize: The most bytes of body collected, `nil` for no limit; read in ``Mode/collect`` only.
        ///   - inflates: Whether to inflate a gzip or deflate body, which the client does not.
        ///   - owner: The client's owner, when the transport made the client; `nil` by default.
        init(
            _ request: HTTPClient.Request, on client: HTTPClient, preferredLoop: (any EventLoop)?,
            mode: Mode, timeout: TimeInterval?,
            sendProgress: (@Sendable (Int64, Int64?) -> Void)?, canResend: Bool, files: OpenedBodyFiles?,
            maximumBodySize: Int64? = nil, inflates: Bool = false, owner: OwnedHTTPClient? = nil
        ) {
            self.request = request
            self.client = client
            self.preferredLoop = preferredLoop
            hasRequestBody = request.body != nil
            isHEAD = request.method == .HEAD
            self.owner = owner
            self.files = files
            self.inflates = inflates
            self.mode = mode
            self.maximumBodySize = mode == .collect ? maximumBodySize : nil
            self.timeout = timeout.map { UInt64(min($0, 1e9) * 1_000_000_000) }
            self.sendProgress = sendProgress
            self.canResend = canResend
        }

        /// Executes the request and waits for the outcome: the head when streaming, everything when
        /// collecting. Cancelling the calling task until then ends it.
        func run() async -> Result<TransportResponse, APIError> {
            await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    let ended = state.withLock { state -> APIError? in
                        if case .ended(let reason) = state.phase { return reason }
                        state.waiter = continuation
                        state.lastActivity = Self.now()
                        if let timeout { state.deadline = scheduleDeadline(at: state.lastActivity + timeout) }
                        return nil
                    }
                    if let ended { return continuation.resume(returning: .failure(ended)) }
                    guard let loop = preferredLoop, !loop.inEventLoop else { return execute(attempt: 0) }
                    // Handed to the request's own loop, AsyncHTTPClient registers its completion there
                    // without a hop of its own, and so does the exchange's failure handler; a connection
                    // of that loop starts the request without one either: one hop instead of three.
                    loop.execute {
                        // Ended while it waited for the loop (cancelled, timed out): not started at all,
                        // where a started one would be failed at once and take a pooled connection with it.
                        guard !self.hasEnded else { return }
                        self.execute(attempt: 0)
                    }
                }
            } onCancel: {
                end(.cancelled, unlessHeadDelivered: true)
            }
        }

        /// Hands the request to the client for sending the `attempt`th time.
        private func execute(attempt: Int) {
            let task = client.execute(
                request: request, delegate: self, eventLoop: preferredLoop.map { .delegate(on: $0) } ?? .indifferent,
                deadline: nil, logger: nil)
            // A task that fails before it starts (the client shut down) or while it follows a redirect
            // (a client that follows them itself) fails without telling the delegate.
            task.futureResult.whenFailure { [self] error in fail(error, attempt: attempt) }
            let endedMeanwhile = state.withLock { state -> APIError? in
                guard state.attempt == attempt else { return nil }
                state.task = task
                if case .ended(let reason) = state.phase { return reason }
                return nil
            }
            if let endedMeanwhile { task.fail(reason: endedMeanwhile) }
        }

        /// Ends the exchange as `reason` unless it has ended already: the waiter or the reader gets
        /// the error, and AsyncHTTPClient fails the request, closing its connection. With
        /// `unlessHeadDelivered` (the caller's cancellation), a streamed body whose head was handed over
        /// is left to its reader, who cancels it by reading in a cancelled task or by dropping it.
        func end(_ reason: APIError, unlessHeadDelivered: Bool = false) {
            let ended = state.withLock { state -> (Waiter?, ResponseBody.Writer?, HTTPClient.Task<Void>?, EventLoopPromise<Void>?)? in
                guard let writer = state.writerIfRunning else { return nil }
                if unlessHeadDelivered, writer != nil { return nil }
                let (waiter, demand) = state.close(as: .ended(reason))
                return (waiter, writer, state.task, demand)
            }
            guard let (waiter, writer, task, demand) = ended else { return }
            files?.closeAll()
            waiter?.resume(returning: .failure(reason))
            writer?.finish(throwing: reason)
            task?.fail(reason: reason)
            // AsyncHTTPClient waits for it no longer; a promise must not be left unfulfilled.
            demand?.succeed(())
        }

        // MARK: AsyncHTTPClient's calls

        func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
            let followsRedirects = state.withLock { state in
                state.lastActivity = Self.now()
                state.requestHeadSent = true
                return state.responseVisited
            }
            if followsRedirects { end(Self.followsRedirectsError) }
        }

        /// The failure of a request whose `HTTPClient` follows redirects itself, past the client's ``RedirectPolicy``.
        static let followsRedirectsError = APIError.invalidRequest(
            "the HTTPClient follows redirects itself, so the client's RedirectPolicy cannot apply; make it with "
                + "redirectConfiguration: .disallow, as AsyncHTTPClientTransport.defaultConfiguration() does")

        func didSendRequest(task: HTTPClient.Task<Void>) {
            state.withLock { $0.requestSent = true }
        }

        func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
            let progress = state.withLock { state -> (Int64, Int64?)? in
                guard case .waiting = state.phase else { return nil }
                state.lastActivity = Self.now()
                state.sent += Int64(part.readableBytes)
                return (state.sent, request.body?.contentLength)
            }
            if let (sent, expected) = progress { sendProgress?(sent, expected) }
        }

        func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            if (300..<400).contains(head.status.code) {
                // A client that follows no redirect hands this head to `didReceiveHead` in the same
                // turn of the event loop; one that follows it sends the next request later. Looked at
                // on the next turn, before that request can go out.
                task.eventLoop.execute { [self] in
                    if state.withLock({ $0.head == nil }) { end(Self.followsRedirectsError) }
                }
            }
            state.withLock { state in
                state.lastActivity = Self.now()
                // The request that got this head: after redirects, the final one's URL is the response's.
                state.url = request.url
                state.responseSeen = true
                state.responseVisited = true
                // A redirect sends a new request, body included: its progress starts over.
                if (300..<400).contains(head.status.code) { state.sent = 0 }
            }
        }

        /// The final head: AsyncHTTPClient drops interim `1xx` heads (but `101`) before its delegate, so
        /// none reaches here, nor counts as activity.
        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            var isEarlyRedirect = false
            var tooLarge: APIError?
            let delivery = state.withLock { state -> (Waiter, TransportResponse)? in
                guard case .waiting = state.phase else { return nil }
                state.lastActivity = Self.now()
                state.head = head
                // A redirect that comes before the body went out whole: AsyncHTTPClient stops sending
                // the body and waits for its end, which never comes. Its own body is not wanted (the
                // client follows the redirect or hands back its head), so the exchange ends here.
                if (300..<400).contains(head.status.code), !state.requestSent, hasRequestBody {
                    guard let waiter = state.waiter else { return nil }
                    isEarlyRedirect = true
                    _ = state.close(as: .completed)
                    return (waiter, TransportResponse(head: Self.response(head, url: state.url ?? request.url)))
                }
                let hasBody = !isHEAD && Self.hasBody(head)
                // Made on the event loop of the body's calls, the one it may be used on.
                if inflates, hasBody, let inflater = AsyncHTTPClientInflater(for: head) {
                    state.inflater = NIOLoopBound(inflater, eventLoop: task.eventLoop)
                }
                switch mode {
                case .collect:
                    let length = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
                    state.collected = CollectedBody(limit: maximumBodySize)
                    if let limit = maximumBodySize,
                        ResponseLimits.isAnnounced(
                            over: limit, length: length, statusCode: Int(head.status.code), method: request.method.rawValue,
                            contentEncoding: head.headers.first(name: "Content-Encoding")),
                        let length
                    {
                        // Announced too long: fail before reading any of it.
                        tooLarge = .responseTooLarge(.inMemory, limit: limit, received: length, announced: true)
                    }
                    return nil
                case .stream:
                    guard let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    let (body, writer) = ResponseBody.makeStream(
                        onDemand: { [weak self] in self?.readerCaughtUp() },
                        onTermination: { [weak self] reason in self?.end(reason) }
                    )
                    state.phase = .streaming(writer)
                    return (
                        waiter,
                        TransportResponse(head: Self.response(head, url: state.url ?? request.url), body: body)
                    )
                }
            }
            if let (waiter, response) = delivery { waiter.resume(returning: .success(response)) }
            if isEarlyRedirect {
                files?.closeAll()
                task.fail(reason: APIError.cancelled)
            }
            if let tooLarge { end(tooLarge) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            if let inflater = state.withLock({ $0.inflater }) { return inflate(buffer, with: inflater, task: task) }
            switch deliver(buffer) {
            case .more, .stop: return task.eventLoop.makeSucceededVoidFuture()
            case .pause(let catchUps): return demand(since: catchUps, on: task.eventLoop)
            }
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            if let inflater = state.withLock({ $0.inflater }) {
                do throws(APIError) {
                    try inflater.value.finish()
                } catch {
                    return end(error)
                }
            }
            var waiter: Waiter?
            var writer: ResponseBody.Writer?
            var head: HTTPResponseHead?
            var url: URL?
            var collected = CollectedBody()
            let finished = state.withLock { state -> Bool in
                guard let running = state.writerIfRunning else { return false }
                writer = running
                (head, url, collected) = (state.head, state.url, state.collected)
                (waiter, _) = state.close(as: .completed)
                return true
            }
            guard finished else { return }
            // Joined out of the lock: a body in chunks is copied once here.
            let response = head.map { TransportResponse(Self.response($0, url: url ?? request.url, body: collected.joined())) }
            files?.closeAll()
            writer?.finish()
            waiter?.resume(returning: response.map { .success($0) } ?? .failure(.invalidResponse))
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
            fail(error, attempt: nil)
        }

        /// Ends the exchange with AsyncHTTPClient's `error`, or sends the request again when its
        /// connection went away before any response. `attempt` names the sending that failed, when
        /// known: the failure of one sent before is ignored.
        private func fail(_ error: any Error, attempt: Int?) {
            enum Step {
                case resend(attempt: Int)
                case fail(Waiter?, ResponseBody.Writer?, EventLoopPromise<Void>?, APIError)
            }
            let step = state.withLock { state -> Step? in
                guard let writer = state.writerIfRunning, attempt == nil || attempt == state.attempt else { return nil }
                // A request the server has answered (with a redirect, say) has gone out, whatever became of the next.
                // Once the final head has come, the failure is the body's: sending the request again
                // would hand the reader a second body after part of the first.
                if canResend, state.head == nil, state.attempt < Self.maximumResends,
                    AsyncHTTPClientFailure.mayResend(
                        after: error, method: request.method, requestHeadSent: state.requestHeadSent || state.responseSeen)
                {
                    state.attempt += 1
                    state.task = nil
                    state.requestHeadSent = false
                    state.requestSent = false
                    state.responseVisited = false
                    state.sent = 0
                    state.url = nil
                    state.lastActivity = Self.now()
                    return .resend(attempt: state.attempt)
                }
                let reason = AsyncHTTPClientFailure.apiError(error, headReceived: state.head != nil, url: state.url ?? request.url)
                let (waiter, demand) = state.close(as: .completed)
                return .fail(waiter, writer, demand, reason)
            }
            switch step {
            case .resend(let attempt):
                // As AsyncHTTPClient's own redirects do, from within its callback: a client shut down
                // meanwhile fails the new task, which `execute` hears of.
                execute(attempt: attempt)
            case .fail(let waiter, let writer, let demand, let reason):
                files?.closeAll()
                waiter?.resume(returning: .failure(reason))
                writer?.finish(throwing: reason)
                demand?.succeed(())
            case nil:
                break
            }
        }

        /// Whether a body follows `head` (the request not being a `HEAD`): not for a 1xx, 204 or 304,
        /// whatever their `Content-Length` says.
        private static func hasBody(_ head: HTTPResponseHead) -> Bool {
            let code = head.status.code
            return code >= 200 && code != 204 && code != 304
        }
    }
#endif
