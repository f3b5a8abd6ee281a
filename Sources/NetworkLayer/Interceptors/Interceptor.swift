import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A step in a client's request pipeline: it can adapt each attempt before it is sent, answer or
/// reshape it around the transport, decide whether a failed attempt is retried, and observe what
/// happens.
///
/// A client's ``ClientConfiguration/interceptors`` run in order. Before every attempt each adapter gets the
/// request the previous one returned, starting from the request as built, so an adapter runs
/// again on a retry (with a fresh token, say). When an attempt fails, the retriers are asked in
/// order until one decides something other than ``RetryDecision/doNotRetry``. Every interceptor
/// sees every ``NetworkEvent``. Between adapting and the transport, ``intercept(_:context:next:)``
/// can answer by itself (a cache, de-duplication). All four methods have defaults that do nothing,
/// so implement only what you need:
///
/// ```swift
/// struct UserAgent: Interceptor {
///     func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
///         var request = request
///         request.setValue("MovieApp/1.0", forHTTPHeaderField: "User-Agent")
///         return request
///     }
/// }
/// ```
public protocol Interceptor: Sendable {
    /// Returns the request to send for this attempt; by default `request` unchanged.
    ///
    /// Setting the request's `timeoutInterval` sets this attempt's timeout, in place of the
    /// endpoint's or the transport's.
    ///
    /// Throwing stops the request before anything is sent: an ``APIError`` is passed on as it is,
    /// and any other error becomes ``APIError/adaptationFailed(interceptor:error:)`` naming this interceptor.
    /// - Parameters:
    ///   - request: The request as built, or as the interceptors before this one adapted it.
    ///   - context: Which request and attempt this is.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// Decides whether an attempt that failed with `error` is sent again; by default ``RetryDecision/doNotRetry``.
    ///
    /// It is not asked about ``APIError/cancelled`` nor ``APIError/deadlineExceeded(_:)``, which always end the request.
    /// - Parameters:
    ///   - request: The request as it was sent, after every adapter.
    ///   - error: Why the attempt failed.
    ///   - context: Which request and attempt failed; `context.attempt` is the failed attempt's number.
    func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision

    /// Sends the attempt by calling `next`, and returns what came back; by default `try await next(request)`.
    ///
    /// This is the step that can answer by itself: return a ``TransportResponse`` without calling
    /// `next` (a cached body, a shared in-flight answer, a canned one in a test), change the request
    /// on its way or the response on its way back, or call `next` more than once. Interceptors are
    /// chained in order, the first outermost; the last `next` is the transport. The response comes
    /// back before its status is checked, so a `304 Not Modified` can be answered from a cache, and
    /// its body is still a stream: read it (``ResponseBody/collect()``) only when you need it, and
    /// hand back a ``TransportResponse`` with the bytes you read.
    /// - Parameters:
    ///   - request: The attempt's request, after every adapter.
    ///   - context: Which request and attempt this is.
    ///   - next: Sends a request through the rest of the chain.
    /// - Throws: An ``APIError``, which fails the attempt (and may be retried).
    func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse

    /// Called for each event of every request the client sends; by default it does nothing.
    ///
    /// It is called inline on the request's task (a stream's last two events: on the task that ended
    /// the stream), so keep it quick and hand slow work elsewhere.
    func observe(_ event: NetworkEvent)
}

extension Interceptor {
    /// Returns `request` unchanged.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        request
    }

    /// Returns ``RetryDecision/doNotRetry``.
    public func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        .doNotRetry
    }

    /// Sends `request` through the rest of the chain, unchanged.
    public func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        try await next(request)
    }

    /// Does nothing.
    public func observe(_ event: NetworkEvent) {}
}
