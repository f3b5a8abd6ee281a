#if canImport(FoundationNetworking)
    import Foundation

    /// Lets a bounded number of uploads from a file run at once in the process, on Linux; the others
    /// wait their turn, in order.
    ///
    /// FoundationNetworking reads an upload task's file through a `DispatchIO` channel of its own,
    /// whose reads and deliveries hop across queues of Dispatch's overcommit pool, each hop taking a
    /// new thread when none is idle. 1,000 uploads of 60 KiB files at once on one session peaked at
    /// 68–122 threads, where the same bodies from memory stayed at 12–14; with at most 8 file uploads
    /// at once, 36–40 (the burst then takes about 6 s instead of 2.5 s on loopback). A turn lasts
    /// from the task's creation to its end. The wait for a turn is not counted by the idle timeout,
    /// since it lasts as long as other uploads do; cancelling ends it.
    final class FileUploadGate: Sendable {
        /// The gate of every ``URLSessionTransport`` in the process.
        static let shared = FileUploadGate(limit: 8)

        private struct State {
            var running = 0
            var waiting: [@Sendable () -> Void] = []
            /// The index in `waiting` of the next to run; the array is compacted as it drains.
            var next = 0
        }

        /// The most file uploads running at once.
        let limit: Int
        private let state = Locked(State())

        init(limit: Int) {
            self.limit = max(1, limit)
        }

        /// Takes a turn now when fewer than ``limit`` uploads are running, else queues `later`, which
        /// runs with the turn once enough uploads have left, on the thread that calls ``leave()`` (so it
        /// must not block). Every turn taken must be given back with one ``leave()``.
        /// - Returns: Whether the turn was taken now (and `later` will not run).
        func enter(orWaitFor later: @escaping @Sendable () -> Void) -> Bool {
            state.withLock { state -> Bool in
                guard state.running < limit else {
                    state.waiting.append(later)
                    return false
                }
                state.running += 1
                return true
            }
        }

        /// Ends one upload's turn, and starts the next waiting one, if any.
        func leave() {
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.next < state.waiting.count else {
                    state.running -= 1
                    return nil
                }
                let start = state.waiting[state.next]
                state.next += 1
                if state.next == state.waiting.count {
                    state.waiting.removeAll(keepingCapacity: true)
                    state.next = 0
                } else if state.next >= 1024, state.next * 2 >= state.waiting.count {
                    state.waiting.removeFirst(state.next)
                    state.next = 0
                }
                return start
            }
            next?()
        }

    }
#endif
