import Foundation

/// What an ``Interceptor`` decides about a failed attempt.
public enum RetryDecision: Sendable, Equatable {
    /// Send the request again now.
    case retry
    /// Send the request again after waiting this many seconds; cancelling the caller's task
    /// during the wait ends the request at once with ``APIError/cancelled``.
    case retryAfter(TimeInterval)
    /// This interceptor does not retry; the next one is asked, and if none retries, the attempt's error is final.
    case doNotRetry
    /// Stop now and fail with this error instead of the attempt's, without asking the other interceptors
    /// (for example ``APIError/credentialRefreshFailed(_:)`` when a token could not be refreshed).
    case fail(APIError)
}
