#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1

    extension AsyncHTTPClientExchange {
        /// What became of a piece of the body handed to ``deliver(_:)``.
        enum Delivery {
            /// Taken: go on.
            case more
            /// Taken, but the reader is behind: go on once it has caught up since `catchUps`.
            case pause(catchUps: UInt64)
            /// The exchange is over (ended, completed, or the piece went past the limit): stop.
            case stop
        }

        /// Hands `piece` on: appended to the collected body (the exchange ends at once when it goes
        /// past ``maximumBodySize``), or yielded to the streamed body's reader.
        func deliver(_ piece: ByteBuffer) -> Delivery {
            enum Step {
                case collected
                case tooLarge(APIError)
                case stream(ResponseBody.Writer, UInt64)
                case over
            }
            let step = state.withLock { state -> Step in
                state.lastActivity = Self.now()
                switch state.phase {
                case .waiting:
                    // Collecting (a stream's body comes after its head, in `.streaming`), counted
                    // decompressed: a body that inflates stops at the limit too.
                    let received = Int64(state.collected.count) + Int64(piece.readableBytes)
                    if let limit = maximumBodySize, received > limit {
                        return .tooLarge(.responseTooLarge(.inMemory, limit: limit, received: received))
                    }
                    piece.withUnsafeReadableBytes { state.collected.append($0, announcedLength: Self.announcedLength(of: state.head)) }
                    return .collected
                case .streaming(let writer):
                    return .stream(writer, state.catchUps)
                case .ended, .completed:
                    return .over
                }
            }
            switch step {
            case .collected:
                return .more
            case .over:
                return .stop
            case .tooLarge(let error):
                end(error)
                return .stop
            case .stream(let writer, let catchUps):
                let chunk = piece.getData(at: piece.readerIndex, length: piece.readableBytes, byteTransferStrategy: .automatic) ?? Data()
                switch writer.yield(chunk) {
                case .more: return .more
                case .pause: return .pause(catchUps: catchUps)
                case .dropped: return .stop
                }
            }
        }

        /// Completes once the reader has caught up since `catchUps` (at once when it has, or when the
        /// exchange is over): what AsyncHTTPClient waits for before it reads on.
        func demand(since catchUps: UInt64, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
            let demand = eventLoop.makePromise(of: Void.self)
            let waits = state.withLock { state -> Bool in
                guard case .streaming = state.phase, state.catchUps == catchUps else { return false }
                state.demand = demand
                return true
            }
            if !waits { demand.succeed(()) }
            return demand.futureResult
        }

        /// Inflates `compressed` a slice at a time, delivering what each slice inflates to before the
        /// next is inflated: it stops once the exchange is over (a limit went past included), and
        /// waits while the reader is behind. Completes once all of it is delivered, or dropped.
        func inflate(
            _ compressed: ByteBuffer, with inflater: NIOLoopBound<AsyncHTTPClientInflater>, task: HTTPClient.Task<Void>
        ) -> EventLoopFuture<Void> {
            var compressed = compressed
            while compressed.readableBytes > 0 {
                var outcome = Delivery.more
                do throws(APIError) {
                    try inflater.value.inflateSlice(of: &compressed) { piece in
                        // After a pause the rest of the slice is still taken; after a stop it is dropped.
                        if case .stop = outcome { return }
                        switch deliver(piece) {
                        case .more: break
                        case .stop: outcome = .stop
                        case .pause(let catchUps): if case .more = outcome { outcome = .pause(catchUps: catchUps) }
                        }
                    }
                } catch {
                    end(error)
                    return task.eventLoop.makeSucceededVoidFuture()
                }
                switch outcome {
                case .more:
                    continue
                case .stop:
                    return task.eventLoop.makeSucceededVoidFuture()
                case .pause(let catchUps):
                    let rest = compressed
                    return demand(since: catchUps, on: task.eventLoop).flatMap { [self] in inflate(rest, with: inflater, task: task) }
                }
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        /// The reader has caught up: AsyncHTTPClient, or the inflating, may go on.
        func readerCaughtUp() {
            let demand = state.withLock { state in
                state.catchUps &+= 1
                state.lastActivity = Self.now()
                defer { state.demand = nil }
                return state.demand
            }
            demand?.succeed(())
        }

        /// The length of the body `head` announces: `nil` when it announces none, or when the body is
        /// encoded, since what is collected is its inflated form.
        static func announcedLength(of head: HTTPResponseHead?) -> Int64? {
            guard let head, ResponseLimits.isIdentity(head.headers.first(name: "Content-Encoding")) else { return nil }
            return head.headers.first(name: "Content-Length").flatMap { Int64($0) }
        }
    }
#endif
