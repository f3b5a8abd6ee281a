import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``: sends over a `URLSession`.
///
/// Every request is a delegate-driven task (on one session per client), so the body can be collected,
/// written to a file or streamed from the same callbacks, with one idle deadline and one way of
/// cancelling. The session follows no redirect: it hands back every `3xx`, and the client follows it
/// by its ``RedirectPolicy``, as over every transport. The idle timeout is the request's
/// `timeoutInterval`, enforced by the transport to the millisecond on every platform; the session's
/// `timeoutIntervalForRequest` is not a second one (set ``ClientConfiguration/timeout`` instead).
///
/// On Linux it also absorbs FoundationNetworking's traps, so that they behave as on Apple platforms:
/// - a 401 with a `Basic` challenge comes back as the 401 instead of hanging (its body is lost);
/// - timeouts are not cut to whole seconds, and apply to custom `URLProtocol`s too;
/// - cancelling many requests at once neither hangs nor crashes;
/// - a reader that falls behind a streamed body is fed from a temporary file instead of holding the
///   transfer back, since a Linux transfer cannot pause (see ``ResponseBody``).
///
/// One trap it cannot absorb: FoundationNetworking of Swift 6.3.1 cannot send to a URL whose host is
/// an IPv6 literal (`http://[::1]:8080/`), so on Linux such a request fails before it is sent with
/// ``APIError/invalidRequest(_:)`` saying so, instead of `badURL`; `AsyncHTTPClientTransport`
/// (package trait `AsyncHTTPClient`) sends it.
public struct URLSessionTransport: HTTPTransport {
    /// The session whose configuration (and, on Apple platforms, delegate) the requests use.
    public let session: URLSession
    /// The transport's exchanges that have not yet had their outcome, shared by its copies: on Apple
    /// platforms a request alone among them starts on its caller's thread, others on the control queue;
    /// on Linux every one starts on the control queue (see ``SessionEngine/start(isAlone:_:)``). One
    /// transport's traffic never changes how another's starts.
    private let exchangesInFlight = Locked(0)

    /// Creates a transport over `session`.
    ///
    /// Any session works. On Apple platforms its delegate keeps deciding challenges; redirects are the
    /// client's (see ``RedirectPolicy``).
    /// On Linux, a session made by ``init(configuration:)`` is used as it is;
    /// any other gets a companion session made once from its configuration, whose delegate asks the
    /// session's own delegate (if any) about challenges.
    /// - Parameter session: The session to send through.
    public init(session: URLSession) {
        self.session = session
    }

    /// Sends `request` and returns as soon as the head arrives; the body streams after it.
    public func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        try await exchange(request, mode: .stream)
    }

    /// Sends `request` and returns the response with its whole body, collected as it arrives, up to
    /// its ``TransportRequest/maximumBodySize``.
    public func data(for request: TransportRequest) async throws(APIError) -> HTTPResponse {
        let response = try await exchange(request, mode: .collect)
        return response.head.with(body: try await response.body.collect())
    }

    /// Runs the exchange: one task, whose redirects the session hands back for the client to follow.
    private func exchange(_ request: TransportRequest, mode: SessionTaskHandler.Mode) async throws(APIError) -> TransportResponse {
        let engine = SessionEngine.engine(for: session)
        #if canImport(FoundationNetworking)
            if let url = request.urlRequest.url, let refusal = FoundationNetworkingFailure.ipv6LiteralHostError(url) { throw refusal }
        #endif
        let handler = SessionTaskHandler(
            mode: mode, engine: engine, timeout: request.idleTimeout,
            sendProgress: request.sendProgress, maximumBodySize: request.maximumBodySize, method: request.urlRequest.httpMethod)
        let isAlone = exchangesInFlight.withLock { count in
            defer { count += 1 }
            return count == 0
        }
        let outcome = await handler.run(
            Self.prepared(request, session: session), bodyFile: request.bodyFile, isAlone: isAlone)
        exchangesInFlight.withLock { $0 -= 1 }
        let (response, body) = try outcome.get()
        return TransportResponse(head: HTTPResponse(response, body: Data()), body: body)
    }

    /// The request as the task gets it: URLSession's own timer set out of the way of the transport's
    /// deadline (FoundationNetworking would cut it to whole seconds, and count time a reader holds
    /// the transfer back), unless that timer cannot fire first (see ``foundationTimerIsHarmless(_:session:)``).
    private static func prepared(_ request: TransportRequest, session: URLSession) -> URLRequest {
        var urlRequest = request.urlRequest
        if !foundationTimerIsHarmless(request, session: session) {
            urlRequest.timeoutInterval = foundationTimeout
        }
        #if canImport(FoundationNetworking)
            // A server may answer (a 307, say) before reading a large body; FoundationNetworking then
            // reuses that connection for the next request, which hangs. Closing it after the answer
            // costs one connection per large upload. The size is read first: looking a header up costs more.
            if bodySize(of: request) >= largeBodySize, urlRequest.value(forHTTPHeaderField: "Connection") == nil {
                urlRequest.setValue("close", forHTTPHeaderField: "Connection")
            }
        #endif
        return urlRequest
    }

    #if canImport(FoundationNetworking)
        /// The body size from which a request closes its connection after the answer.
        private static let largeBodySize: Int64 = 64 * 1024

        private static func bodySize(of request: TransportRequest) -> Int64 {
            if let file = request.bodyFile {
                return (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            }
            return Int64(request.urlRequest.httpBody?.count ?? 0)
        }
    #endif

    /// A week: URLSession's own timer never fires before the transport's.
    private static let foundationTimeout: TimeInterval = 7 * 24 * 60 * 60

    /// Whether URLSession's own timer may be left as it is: it then fires no earlier than the
    /// transport's deadline, so the week need not be set. Setting it copies a request the call
    /// still shares (about 1% of a loopback request on Linux).
    ///
    /// On Linux that is a request without a body whose `timeoutInterval` is 60 seconds (URLRequest's
    /// default, which FoundationNetworking replaces with the session's `timeoutIntervalForRequest`),
    /// over a session whose timeout is a whole number of seconds (which FoundationNetworking does not
    /// cut) of at least 60: FoundationNetworking's timer is then an idle timer no shorter than the
    /// transport's, which starts first. FoundationNetworking arms its timer when it sets the transfer
    /// up and arms it again after every header line, body chunk and chunk of upload libcurl hands
    /// over (`_EasyHandle.resetTimer()`, Swift 6.3.1), and a transfer on Linux never pauses for its
    /// reader (see ``SessionTaskHandler/makeBody()``), so it counts no idle time the transport does
    /// not. On Apple platforms, where a reader pauses the task, the week is always set.
    private static func foundationTimerIsHarmless(_ request: TransportRequest, session: URLSession) -> Bool {
        #if canImport(FoundationNetworking)
            guard request.urlRequest.timeoutInterval == defaultRequestTimeout, !request.hasBody else { return false }
            let sessionTimeout = session.configuration.timeoutIntervalForRequest
            return sessionTimeout.isFinite && sessionTimeout >= defaultRequestTimeout && sessionTimeout.rounded(.down) == sessionTimeout
        #else
            return false
        #endif
    }
}
