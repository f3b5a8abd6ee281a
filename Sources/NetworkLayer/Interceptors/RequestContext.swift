import Foundation

/// Which request and which attempt an ``Interceptor`` is working on.
public struct RequestContext: Sendable, Equatable {
    /// Identifies one call to the client, shared by all its attempts and its ``NetworkEvent``s.
    public let requestID: Int
    /// The attempt's number, starting at 1: the attempt about to be sent in
    /// ``Interceptor/adapt(_:context:)``, the one that just failed in ``Interceptor/retry(_:for:context:)``.
    public let attempt: Int
    /// Why each earlier attempt failed, oldest first; empty on the first attempt.
    public let previousErrors: [APIError]
    /// Whether the request wants a credential: its endpoint's ``CallOptions/requiresAuthentication``,
    /// `true` for a request built by hand. The library's authenticators neither add a credential to
    /// nor refresh one for a request that says `false`; an interceptor of your own may read it too.
    public let requiresAuthentication: Bool
    /// The URLs this exchange was redirected from, oldest first: empty for an attempt's first
    /// exchange, one URL for the first redirect's target, and so on. Each redirect hop goes through
    /// ``Interceptor/intercept(_:context:next:)`` with it set (adapters run once per attempt, before
    /// the first hop), so that a cookie jar, a cache or a log sees every exchange.
    public internal(set) var redirectedFrom: [URL] = []
    /// Whether the call reads the body as it arrives (a stream, a download, progress) rather than
    /// whole in memory, in ``Interceptor/intercept(_:context:next:)``: an interceptor that would read
    /// the whole body (an ``HTTPCache`` storing it, say) lets such an exchange through untouched.
    /// `false` in ``Interceptor/adapt(_:context:)`` and ``Interceptor/retry(_:for:context:)``.
    public internal(set) var isStreamed = false
    /// The client's transport, in ``Interceptor/intercept(_:context:next:)``: what an ``HTTPCache``
    /// revalidates a `stale-while-revalidate` response over once the call has returned, when `next`
    /// can no longer send. `nil` in a context made by hand.
    var transport: ClientTransport?

    /// Creates a context; the client makes these, so you need this only to call an interceptor in a test.
    /// - Parameters:
    ///   - requestID: The request's ID; 0 by default.
    ///   - attempt: The attempt's number; 1 by default.
    ///   - previousErrors: Why earlier attempts failed; none by default.
    ///   - requiresAuthentication: Whether the request wants a credential; `true` by default.
    public init(requestID: Int = 0, attempt: Int = 1, previousErrors: [APIError] = [], requiresAuthentication: Bool = true) {
        self.requestID = requestID
        self.attempt = attempt
        self.previousErrors = previousErrors
        self.requiresAuthentication = requiresAuthentication
    }

    /// This context for one exchange: with ``isStreamed`` set to `isStreamed`, redirected from
    /// `redirectedFrom`, over the client's `transport`.
    func exchange(streamed isStreamed: Bool, redirectedFrom: [URL], transport: any HTTPTransport) -> RequestContext {
        var context = self
        context.isStreamed = isStreamed
        context.redirectedFrom = redirectedFrom
        context.transport = ClientTransport(transport: transport)
        return context
    }

    /// A new request ID, unique within the process.
    static func nextRequestID() -> Int {
        requestIDs.withLock { last in
            last += 1
            return last
        }
    }
}

/// The last request ID handed out.
private let requestIDs = Locked(0)

/// The client's transport as a context carries it: two contexts never differ by it, so that
/// contexts compare by the exchange they describe.
struct ClientTransport: Sendable, Equatable {
    let transport: any HTTPTransport

    static func == (lhs: ClientTransport, rhs: ClientTransport) -> Bool { true }
}
