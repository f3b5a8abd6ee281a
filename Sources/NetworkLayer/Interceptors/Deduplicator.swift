import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that sends identical requests in flight at the same time once: the first goes
/// through, the others wait for its response and get a copy. Opt-in: add it to a client's interceptors.
///
/// Requests are identical when their method, URL, body and every header field are: credentials
/// (`Authorization`, `Cookie`, an API key) are header fields, so two users never share a response.
/// Only the methods given to ``init(methods:)`` are merged (`GET` and `HEAD` by default), and never a body sent from a stream.
///
/// Only a response whose body the transport collected is shared (`send`, `fetch`,
/// `response` and the other calls that return the body in memory): a stream or a download
/// reads its body once, so a request that joined one sends its own when the head arrives.
///
/// A waiter that is cancelled leaves at once and the others go on. When the caller whose request is
/// on the wire is cancelled (or its deadline passes), that transfer ends, and the waiters send the
/// request again, one of them for all the rest: the others still succeed, at the cost of one more request.
/// A failure of the shared request (a dropped connection, say) is every waiter's failure; each
/// client's retry policy then decides for each caller as usual.
public final class Deduplicator: Interceptor {
    /// The methods whose identical requests are merged; `GET` and `HEAD` by default.
    let methods: Set<String>
    private let flights = Locked(Flights())

    /// Creates a de-duplicator.
    /// - Parameter methods: The methods whose identical requests in flight are merged (uppercase); `GET` and `HEAD` by default.
    public init(methods: Set<String> = ["GET", "HEAD"]) {
        self.methods = methods
    }

    /// The number of callers waiting for another's response now, for tests.
    var waiterCount: Int {
        flights.withLock { $0.byKey.values.reduce(0) { $0 + $1.count } }
    }

    /// Sends `request`, or waits for the identical one in flight and returns a copy of its response.
    public func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        guard methods.contains(request.httpMethod ?? "GET"), request.httpBodyStream == nil, let key = Key(request) else {
            return try await next(request)
        }
        while true {
            if Task.isCancelled { throw .cancelled }
            let waiter = flights.withLock { flights -> Int? in
                guard flights.byKey[key] != nil else {
                    flights.byKey[key] = [:]
                    return nil
                }
                flights.lastID += 1
                flights.byKey[key]?[flights.lastID] = .pending
                return flights.lastID
            }
            guard let waiter else { return try await lead(request, key: key, next: next) }
            switch await wait(for: key, as: waiter) {
            case .shared(let response): return TransportResponse(response)
            case .failed(let error): throw error
            case .sendYourself: continue
            }
        }
    }

    /// Sends the request for everyone waiting on `key`, and hands them its outcome.
    private func lead(
        _ request: URLRequest, key: Key, next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        let outcome: Outcome
        let result: Result<TransportResponse, APIError>
        do throws(APIError) {
            let response = try await next(request)
            if response.body.wholeSize != nil {
                // Collected by the transport already: reading it does not wait.
                let whole = try await response.collected()
                outcome = .shared(whole)
                result = .success(TransportResponse(whole))
            } else {
                outcome = .sendYourself
                result = .success(response)
            }
        } catch {
            // The leader's own end (its cancellation or deadline) is not the others'.
            switch error {
            case .cancelled, .deadlineExceeded: outcome = .sendYourself
            default: outcome = .failed(error)
            }
            result = .failure(error)
        }
        let waiters = flights.withLock { $0.byKey.removeValue(forKey: key) ?? [:] }
        for case .waiting(let continuation) in waiters.values { continuation.resume(returning: outcome) }
        return try result.get()
    }

    /// Waits as `waiter` for the outcome of the request in flight for `key`; a cancelled waiter leaves with ``APIError/cancelled``.
    private func wait(for key: Key, as waiter: Int) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let cancelled = flights.withLock { flights -> Bool in
                    guard case .pending = flights.byKey[key]?[waiter] else { return true }
                    flights.byKey[key]?[waiter] = .waiting(continuation)
                    return false
                }
                // Cancelled before it could wait, or the leader finished in between (and will not resume it).
                if cancelled { continuation.resume(returning: Task.isCancelled ? .failed(.cancelled) : .sendYourself) }
            }
        } onCancel: {
            let waiting = flights.withLock { flights -> Waiter? in
                guard let state = flights.byKey[key]?[waiter] else { return nil }
                flights.byKey[key]?[waiter] = nil
                return state
            }
            if case .waiting(let continuation) = waiting { continuation.resume(returning: .failed(.cancelled)) }
        }
    }
}

extension Deduplicator {
    /// What makes two requests identical: method, URL, body and every header field.
    struct Key: Hashable, Sendable {
        let method: String
        let url: String
        let body: Data?
        let headers: [String]

        init?(_ request: URLRequest) {
            guard let url = request.url else { return nil }
            method = request.httpMethod ?? "GET"
            self.url = url.absoluteString
            body = request.httpBody
            headers = (request.allHTTPHeaderFields ?? [:]).map { $0.key.lowercased() + ":" + $0.value }.sorted()
        }
    }

    /// What a waiter gets from the request it waited for.
    enum Outcome: Sendable {
        /// Its response, body included.
        case shared(HTTPResponse)
        /// Its failure.
        case failed(APIError)
        /// Nothing to share (a streamed body, or the sender gave up): send the request again.
        case sendYourself
    }

    /// A caller waiting for another's response: registered, then holding its continuation.
    enum Waiter: Sendable {
        case pending
        case waiting(CheckedContinuation<Outcome, Never>)
    }

    /// The requests in flight, each with its waiters by ID.
    struct Flights: Sendable {
        var byKey: [Key: [Int: Waiter]] = [:]
        var lastID = 0
    }
}
