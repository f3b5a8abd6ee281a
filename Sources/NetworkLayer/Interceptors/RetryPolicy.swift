import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``Interceptor`` that retries failed attempts that are likely to succeed when sent again,
/// waiting longer each time.
///
/// By default it makes up to 3 attempts, retrying only idempotent methods (`GET`, `HEAD`, `PUT`,
/// `DELETE`, `OPTIONS`, `TRACE`) after a timeout, a lost or refused connection, a DNS failure, or a
/// status of 408, 429, 500, 502, 503 or 504:
///
/// ```swift
/// let client = NetworkClient { $0.interceptors = [RetryPolicy()] }
/// let strict = RetryPolicy(maximumAttempts: 5, baseDelay: 1, maximumDelay: 10, retryableStatusCodes: [503])
/// ```
///
/// What is retried goes by the cause of the failure: a failure that may not happen again is retried,
/// one the same server would repeat is not. ``URLSessionTransport`` gives each failure the code of its
/// cause (on Linux, where FoundationNetworking reports several under codes that name others):
///
/// | Failure | Caused by | Retried |
/// |---|---|---|
/// | ``APIError/timedOut`` | nothing sent or received for the timeout | yes |
/// | `networkConnectionLost` | a reset; the connection closed before the answer, or before the end of the body; the peer gone while the body was sent | yes |
/// | `cannotConnectToHost` | a refused connection | yes |
/// | `cannotFindHost`, `dnsLookupFailed` | a DNS failure | yes |
/// | 408, 429, 500, 502, 503, 504 | the server, saying so | yes, after any `Retry-After` |
/// | `badServerResponse` | a response that is not HTTP: a garbage status line, a status below 100, a header line over 100 KiB (Linux) | no |
/// | `httpTooManyRedirects` | a redirect loop | no |
/// | `notConnectedToInternet` | no network at all | no |
/// | TLS failures, `badURL`, `unsupportedURL` | the configuration or the URL | no |
/// | other statuses, ``APIError/invalidResponse``, decoding and file errors | the request or the response | no |
/// | ``APIError/cancelled`` | the caller | never |
///
/// The wait before attempt *n* + 1 is "full jitter" exponential backoff: a random time between 0 and
/// `min(maximumDelay, baseDelay × 2ⁿ⁻¹)`. A response's `Retry-After` header, in seconds or as an HTTP
/// date, replaces that wait, and a retry never comes earlier than it says: when it asks for more than
/// `maximumDelay`, the request is not retried, and the caller gets the error, whose response carries
/// the header (RFC 9110 §10.2.3). Cancelling the caller's task during a wait
/// ends the request at once with ``APIError/cancelled``. The error of the last attempt is the one
/// the caller gets.
public struct RetryPolicy: Interceptor {
    /// `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE`: the methods that are safe to send twice.
    @usableFromInline static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, HTTPMethod(rawValue: "TRACE")]
    /// 408, 429, 500, 502, 503 and 504.
    @usableFromInline static let transientStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Timed out, connection lost (reset, closed before the answer or mid-body), connection refused
    /// (cannot connect), cannot find host and DNS lookup failed.
    @usableFromInline static let transientURLErrorCodes: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
    ]

    /// The most attempts a request gets, the first one included; 1 never retries.
    var maximumAttempts: Int
    /// The backoff's scale in seconds: the longest wait after the first attempt.
    var baseDelay: TimeInterval
    /// The longest wait in seconds: the backoff's ceiling, and the longest `Retry-After` that is
    /// waited for (a longer one ends the retries).
    var maximumDelay: TimeInterval
    /// The methods that are retried; others fail on the first error.
    var retryableMethods: Set<HTTPMethod>
    /// The statuses outside the client's acceptable codes that are retried.
    var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried; `.timedOut` covers ``APIError/timedOut``.
    var retryableURLErrorCodes: Set<URLError.Code>

    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumAttempts: The most attempts a request gets, the first one included; `3` by default.
    ///   - baseDelay: The backoff's scale in seconds; `0.5` by default.
    ///   - maximumDelay: The longest wait in seconds: the backoff's ceiling, and the longest `Retry-After`
    ///     waited for (a longer one is not retried); `30` by default.
    ///   - retryableMethods: The methods that are retried; `GET HEAD PUT DELETE OPTIONS TRACE` by default.
    ///   - retryableStatusCodes: The statuses that are retried; `408 429 500 502 503 504` by default.
    ///   - retryableURLErrorCodes: The transport failures that are retried; timeouts, lost and refused connections and failed host lookups by default.
    ///   - random: The jitter source, returning a number in `0...1` (others are clamped); uniform by default.
    ///     Tests pass a constant to make waits predictable.
    ///   - now: The current time, for `Retry-After` dates; `Date()` by default.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: TimeInterval = 0.5,
        maximumDelay: TimeInterval = 30,
        retryableMethods: Set<HTTPMethod> = RetryPolicy.idempotentMethods,
        retryableStatusCodes: Set<Int> = RetryPolicy.transientStatusCodes,
        retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.transientURLErrorCodes,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.random = random
        self.now = now
    }

    /// Retries after a wait while attempts remain and the method and failure are retryable; never
    /// sooner than a `Retry-After` allows, and not at all when it asks for more than its maximum delay.
    public func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        guard context.attempt < maximumAttempts, isRetryable(request, for: error) else { return .doNotRetry }
        if let header = error.response?.headers["Retry-After"], let seconds = RetryAfter.seconds(from: header, now: now()) {
            return seconds <= maximumDelay ? .retryAfter(seconds) : .doNotRetry
        }
        return .retryAfter(backoff(afterAttempt: context.attempt))
    }

    /// Whether `error` is worth another attempt of `request`, attempts aside.
    func isRetryable(_ request: URLRequest, for error: APIError) -> Bool {
        guard retryableMethods.contains(HTTPMethod(rawValue: request.httpMethod ?? "GET").normalized) else { return false }
        switch error {
        case .unacceptableStatusCode(let code, _): return retryableStatusCodes.contains(code)
        case .timedOut: return retryableURLErrorCodes.contains(.timedOut)
        case .requestFailed(let urlError): return retryableURLErrorCodes.contains(urlError.code)
        default: return false
        }
    }

    /// The jittered wait after attempt `attempt` failed: `random() × min(maximumDelay, baseDelay × 2^(attempt − 1))`.
    func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let ceiling = min(maximumDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        let jitter = random()
        guard ceiling.isFinite, ceiling > 0, jitter.isFinite else { return 0 }
        return ceiling * min(max(jitter, 0), 1)
    }
}
