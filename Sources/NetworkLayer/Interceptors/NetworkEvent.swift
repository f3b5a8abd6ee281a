import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Something that happened to a request, for logging and metrics; every ``Interceptor`` observes every event.
///
/// Each call to the client emits ``requestStarted(id:request:)``, then for each attempt one
/// ``exchangeFinished(_:)`` per exchange that came back (a redirect hop, a cache's answer, the final
/// response) and one ``attemptFinished(_:)``, then ``requestFinished(_:)``, all with the same request ID. A call that
/// returns a ``ResponseStream`` emits its last two when the stream ends (read to its end, failed,
/// cancelled or dropped), so that they count every byte it read; they are then called on the task
/// that ended it.
public enum NetworkEvent: Sendable {
    /// The client is about to adapt and send a request, as built.
    case requestStarted(id: Int, request: URLRequest)
    /// One exchange of an attempt came back through the interceptors: a redirect the policy then
    /// follows, or the attempt's answer, from the network or from an interceptor (a cache's hit).
    case exchangeFinished(ExchangeMetrics)
    /// An attempt was sent and ended; the metrics say how, and whether it will be retried.
    case attemptFinished(AttemptMetrics)
    /// The request ended, successfully or not; no further attempt follows.
    case requestFinished(RequestMetrics)

    /// The ID of the request the event belongs to.
    public var requestID: Int {
        switch self {
        case .requestStarted(let id, _): id
        case .exchangeFinished(let metrics): metrics.context.requestID
        case .attemptFinished(let metrics): metrics.requestID
        case .requestFinished(let metrics): metrics.requestID
        }
    }
}

/// One exchange of an attempt: the request as the interceptors were given it and the response head
/// that came back, whether from the network or from an interceptor that answered by itself.
public struct ExchangeMetrics: Sendable {
    /// The request, attempt and redirect hop: ``RequestContext/redirectedFrom`` is empty for an
    /// attempt's first exchange.
    public let context: RequestContext
    /// The request as it entered the interceptors' ``Interceptor/intercept(_:context:next:)`` chain.
    public let request: URLRequest
    /// The response's status and headers (its body is the caller's to read).
    public let response: HTTPResponse
    /// Whether the exchange reached the transport; `false` when an interceptor answered it by itself,
    /// a cache's hit say (then ``HTTPCache/outcome(of:)`` of ``response`` tells how).
    public let reachedTransport: Bool
    /// Seconds from entering the chain to the response head.
    public let duration: TimeInterval
}

/// How one attempt went: what was sent, what came back, how long it took and what happens next.
public struct AttemptMetrics: Sendable {
    /// The request's ID, shared by all its attempts.
    public let requestID: Int
    /// The attempt's number, starting at 1.
    public let attempt: Int
    /// The request as sent, after every adapter.
    public let request: URLRequest
    /// The response, whatever its status; `nil` when none arrived (a transport failure).
    public let response: HTTPResponse?
    /// Why the attempt failed; `nil` when it succeeded.
    public let error: APIError?
    /// Seconds from sending the request to holding the whole response or the error; for a stream, to its end.
    public let duration: TimeInterval
    /// Seconds until the request is sent again; `nil` when it is not retried.
    public let retryDelay: TimeInterval?
    /// The bytes of request body sent: an in-memory body, a file, a multipart form or a
    /// `httpBodyStream` alike, as the transport reported them going out (``TransportRequest/sendProgress``).
    /// A transport that reports no progress counts as having sent the whole body once it answered;
    /// an attempt an interceptor answered by itself sent nothing.
    public let bytesSent: Int
    /// The bytes of response body received: the body as read, whatever its status, collected,
    /// written to a file or streamed, counted after any `Content-Encoding` is undone (the body's own
    /// bytes, not those on the wire), the same over every transport. A stream's attempt is reported
    /// once the stream ends, with all it read.
    public let bytesReceived: Int

    /// Creates metrics; the client makes these, so you need this only in tests. The byte counts are 0 by default.
    init(
        requestID: Int,
        attempt: Int,
        request: URLRequest,
        response: HTTPResponse?,
        error: APIError?,
        duration: TimeInterval,
        retryDelay: TimeInterval?,
        bytesSent: Int = 0,
        bytesReceived: Int = 0
    ) {
        self.requestID = requestID
        self.attempt = attempt
        self.request = request
        self.response = response
        self.error = error
        self.duration = duration
        self.retryDelay = retryDelay
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
    }

    /// The response's status code, if a response arrived.
    var statusCode: Int? { response?.statusCode }
}

/// How a whole request went, over all its attempts.
public struct RequestMetrics: Sendable {
    /// The request's ID.
    public let requestID: Int
    /// The request as built, before any adapter.
    public let request: URLRequest
    /// The last response received, whatever its status; `nil` when none arrived.
    public let response: HTTPResponse?
    /// The error the caller gets; `nil` on success.
    public let error: APIError?
    /// How many attempts were sent; 0 when an adapter failed before the first.
    public let attempts: Int
    /// Seconds from the start to the end, waits between attempts included.
    public let duration: TimeInterval

    /// Creates metrics; the client makes these, so you need this only in tests.
    init(requestID: Int, request: URLRequest, response: HTTPResponse?, error: APIError?, attempts: Int, duration: TimeInterval) {
        self.requestID = requestID
        self.request = request
        self.response = response
        self.error = error
        self.attempts = attempts
        self.duration = duration
    }
}
