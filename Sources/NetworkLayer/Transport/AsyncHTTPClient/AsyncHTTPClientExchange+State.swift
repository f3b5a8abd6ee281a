#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1

    extension AsyncHTTPClientExchange {
        /// Whether the exchange is over: ended by this side, or completed or failed by AsyncHTTPClient.
        var hasEnded: Bool {
            state.withLock { $0.writerIfRunning == nil }
        }

        /// Where the exchange stands; changed only under the exchange's lock.
        enum Phase {
            /// Before the head (stream) or the end (collect).
            case waiting
            /// Streaming the body to its reader.
            case streaming(ResponseBody.Writer)
            /// Ended by this side (cancellation, deadline, reader), with the reason.
            case ended(APIError)
            /// Completed or failed by AsyncHTTPClient.
            case completed
        }

        /// What the exchange knows of its request's sending and its response.
        struct State {
            var phase = Phase.waiting
            var waiter: Waiter?
            var task: HTTPClient.Task<Void>?
            /// Counts the sendings of the request, so that the failure of one sent before is not taken for the current one's.
            var attempt = 0
            var requestHeadSent = false
            /// Whether the request went out whole, body included.
            var requestSent = false
            /// Whether a response head has come for the current sending: a request head after it means
            /// the `HTTPClient` is following a redirect itself.
            var responseVisited = false
            /// Whether any response head has come, a redirect's included: the server has acted on the
            /// request, so only an idempotent one may be sent again.
            var responseSeen = false
            var head: HTTPResponseHead?
            /// The URL of the last request AsyncHTTPClient sent, once one has had a response: the response's, after redirects.
            var url: URL?
            var collected = CollectedBody()
            var sent: Int64 = 0
            /// The read AsyncHTTPClient waits for while the reader is behind.
            var demand: EventLoopPromise<Void>?
            /// How many times the reader has caught up, so that a catch-up between a pause and the
            /// wait for it is not missed.
            var catchUps: UInt64 = 0
            /// Uptime of the last byte sent or received, in nanoseconds.
            var lastActivity: UInt64 = 0
            var deadline: UInt64?
            /// Inflates the body, when it is compressed and the client does not inflate it itself.
            var inflater: NIOLoopBound<AsyncHTTPClientInflater>?

            /// The streaming body's writer; `nil` (and the exchange over) once ended or completed.
            var writerIfRunning: ResponseBody.Writer?? {
                switch phase {
                case .waiting: .some(nil)
                case .streaming(let writer): .some(writer)
                case .ended, .completed: nil
                }
            }

            /// Ends the phase as `phase`; returns what waited for it: the waiter and the reader's
            /// demand, taken out.
            mutating func close(as phase: Phase) -> (Waiter?, EventLoopPromise<Void>?) {
                self.phase = phase
                if let deadline { DeadlineScheduler.shared.cancel(deadline) }
                defer {
                    waiter = nil
                    demand = nil
                    collected = CollectedBody()
                    inflater = nil
                }
                return (waiter, demand)
            }
        }
    }
#endif
