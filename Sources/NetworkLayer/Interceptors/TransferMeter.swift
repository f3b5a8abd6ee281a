import Foundation

/// Counts the bytes of one attempt for its ``AttemptMetrics``: the request body the transport
/// reports sending, and the response body handed to its reader; and tells, once, when that body ends.
///
/// A body ends when it is read to its end, fails, is cancelled, or is dropped unfinished (the last
/// reference to the meter going away), whichever comes first; later news is ignored.
final class TransferMeter: Sendable {
    private struct State {
        /// The bytes the transport last reported sending, `nil` while it reported none.
        var reportedSent: Int64?
        /// The body's size, counted as sent once the transport answered without reporting progress.
        var answeredBodySize: Int64?
        var received: Int64 = 0
        var isBodyAttached = false

        var bytesSent: Int64 { reportedSent ?? answeredBodySize ?? 0 }
        var isBodyEnded = false
        /// Why the body ended, `nil` at its end or while it has not.
        var endError: APIError?
        var onEnd: (@Sendable (APIError?, _ sent: Int64, _ received: Int64) -> Void)?
    }

    private let state = Locked(State())

    /// The request-body bytes sent: as the transport last reported them; a transport that reported none
    /// is taken to have sent the whole body once it answered; 0 before that.
    var bytesSent: Int64 {
        state.withLock { $0.bytesSent }
    }

    /// The response-body bytes handed to the reader so far.
    var bytesReceived: Int64 {
        state.withLock { $0.received }
    }

    /// Whether a body is being metered and has not ended yet.
    var isBodyOpen: Bool {
        state.withLock { $0.isBodyAttached && !$0.isBodyEnded }
    }

    /// The transport's report of the request body sent so far (on a redirect it starts again).
    func reportSent(_ total: Int64) {
        state.withLock { $0.reportedSent = total }
    }

    /// The transport answered a request whose body has `size` bytes (`nil` when unknown).
    func transportAnswered(bodySize size: Int64?) {
        state.withLock { $0.answeredBodySize = size }
    }

    /// Starts metering a response body.
    func attachBody() {
        state.withLock { $0.isBodyAttached = true }
    }

    /// `count` more bytes of the body were handed to the reader.
    func received(_ count: Int) {
        state.withLock { $0.received += Int64(count) }
    }

    /// The body ended: at its end (`nil`) or with `error`; the first news wins.
    func bodyEnded(_ error: APIError?) {
        let ended = state.withLock { state -> (@Sendable (APIError?, Int64, Int64) -> Void, Int64, Int64)? in
            guard !state.isBodyEnded else { return nil }
            state.isBodyEnded = true
            state.endError = error
            defer { state.onEnd = nil }
            return state.onEnd.map { ($0, state.bytesSent, state.received) }
        }
        if let (onEnd, sent, received) = ended { onEnd(error, sent, received) }
    }

    /// Calls `handler` with how the body ended and the final counts, once it has: at once when it has
    /// already, or when no body is metered. The handler must not hold the meter, whose release is how
    /// a dropped body is noticed.
    func whenBodyEnds(_ handler: @escaping @Sendable (_ error: APIError?, _ sent: Int64, _ received: Int64) -> Void) {
        let ended = state.withLock { state -> (APIError?, Int64, Int64)? in
            guard state.isBodyAttached, !state.isBodyEnded else { return (state.endError, state.bytesSent, state.received) }
            state.onEnd = handler
            return nil
        }
        if let (error, sent, received) = ended { handler(error, sent, received) }
    }

    deinit {
        // The last reader let go of a body it had not finished.
        bodyEnded(.cancelled)
    }
}
