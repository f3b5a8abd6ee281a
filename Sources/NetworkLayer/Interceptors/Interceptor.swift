import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A step in a client's request pipeline: it can adapt each attempt before it is sent, decide
/// whether a failed attempt is retried, and observe what happens.
///
/// A client's ``APIClient/interceptors`` run in order. Before every attempt each adapter gets the
/// request the previous one returned, starting from the request as built, so an adapter runs
/// again on a retry (with a fresh token, say). When an attempt fails, the retriers are asked in
/// order until one decides something other than ``RetryDecision/doNotRetry``. Every interceptor
/// sees every ``NetworkEvent``. All three methods have defaults that do nothing, so implement only
/// what you need:
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
    /// Throwing stops the request before anything is sent: an ``APIError`` is passed on as it is,
    /// and any other error becomes ``APIError/adaptationFailed(interceptor:reason:)`` naming this interceptor.
    /// - Parameters:
    ///   - request: The request as built, or as the interceptors before this one adapted it.
    ///   - context: Which request and attempt this is.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// Decides whether an attempt that failed with `error` is sent again; by default ``RetryDecision/doNotRetry``.
    ///
    /// It is not asked about ``APIError/cancelled``, which always ends the request.
    /// - Parameters:
    ///   - request: The request as it was sent, after every adapter.
    ///   - error: Why the attempt failed.
    ///   - context: Which request and attempt failed; `context.attempt` is the failed attempt's number.
    func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision

    /// Called for each event of every request the client sends; by default it does nothing.
    ///
    /// It is called inline on the request's task, so keep it quick and hand slow work elsewhere.
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

    /// Does nothing.
    public func observe(_ event: NetworkEvent) {}
}
