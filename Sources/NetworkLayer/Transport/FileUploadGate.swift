#if canImport(FoundationNetworking)
    import Foundation

    /// Bounds what uploads from a file take in the process on Linux, where FoundationNetworking's own
    /// way of sending a file is costly; uploads beyond the bound wait their turn, in order.
    ///
    /// FoundationNetworking reads an upload task's file through a `DispatchIO` channel of its own. Its
    /// reads and deliveries hop across Dispatch's overcommit pool, each hop taking a new thread when none
    /// is idle: 1,000 uploads of 60 KiB files at once on one session peaked at 68–122 threads, where the
    /// same bodies from memory stayed at 12–14. And when a connection ends while a read is under way,
    /// the read's completion unpauses a transfer libcurl has let go of, and FoundationNetworking traps
    /// (see ``SessionTaskHandler``). So a file of at most ``inMemoryLimit`` is sent from memory, and a
    /// larger one is read by FoundationNetworking.
    ///
    /// Each upload takes a turn that costs what it holds: a file sent from memory its size, a file read
    /// by FoundationNetworking ``streamedCost``. The turns in progress cost at most ``budget`` (64 MiB):
    /// 64 MiB of files in memory, or 4 files read by FoundationNetworking at once (64 uploads of a 2 MiB
    /// file at once peaked at 75–84 threads, and at 40–52 with 4 at once). A turn lasts from the task's
    /// creation to its end. The wait for a turn is not counted by the idle timeout, since it lasts as
    /// long as other uploads do; cancelling ends it.
    final class FileUploadGate: Sendable {
        /// The gate of every ``URLSessionTransport`` in the process.
        static let shared = FileUploadGate(budget: 64 * 1024 * 1024)

        /// The largest file sent from memory: 1 MiB.
        static let inMemoryLimit: Int64 = 1024 * 1024

        /// What an upload whose file FoundationNetworking reads costs: a quarter of the shared budget,
        /// so that at most 4 of them run at once.
        static let streamedCost: Int64 = 16 * 1024 * 1024

        /// What the upload of a file of `size` bytes costs (`nil`: unknown, so read by FoundationNetworking).
        static func cost(ofFileOfSize size: Int64?) -> Int64 {
            guard let size, size <= inMemoryLimit else { return streamedCost }
            return max(1, size)
        }

        private struct Waiter {
            let cost: Int64
            let start: @Sendable () -> Void
        }

        private struct State {
            var used: Int64 = 0
            var waiting: [Waiter] = []
            /// The index in `waiting` of the next to run; the array is compacted as it drains.
            var next = 0

            /// Whether a turn of `cost` fits now; a turn larger than the whole budget fits alone.
            func fits(_ cost: Int64, in budget: Int64) -> Bool {
                used == 0 || used + cost <= budget
            }
        }

        /// The most the turns in progress may cost together.
        let budget: Int64
        private let state = Locked(State())

        init(budget: Int64) {
            self.budget = max(1, budget)
        }

        /// Takes a turn of `cost` now when it fits and nobody waits, else queues `later`, which runs with
        /// the turn once enough turns have ended, on the thread that ends them (so it must not block).
        /// Every turn taken must be given back with one ``leave(cost:)``.
        /// - Returns: Whether the turn was taken now (and `later` will not run).
        func enter(cost: Int64, orWaitFor later: @escaping @Sendable () -> Void) -> Bool {
            state.withLock { state -> Bool in
                guard state.next == state.waiting.count, state.fits(cost, in: budget) else {
                    state.waiting.append(Waiter(cost: cost, start: later))
                    return false
                }
                state.used += cost
                return true
            }
        }

        /// Ends a turn of `cost`, and starts the waiting turns that now fit, in order.
        func leave(cost: Int64) {
            let starts = state.withLock { state -> [@Sendable () -> Void] in
                state.used -= cost
                var starts: [@Sendable () -> Void] = []
                while state.next < state.waiting.count, state.fits(state.waiting[state.next].cost, in: budget) {
                    let waiter = state.waiting[state.next]
                    state.used += waiter.cost
                    starts.append(waiter.start)
                    state.next += 1
                }
                if state.next == state.waiting.count {
                    state.waiting.removeAll(keepingCapacity: true)
                    state.next = 0
                } else if state.next >= 1024, state.next * 2 >= state.waiting.count {
                    state.waiting.removeFirst(state.next)
                    state.next = 0
                }
                return starts
            }
            starts.forEach { $0() }
        }
    }
#endif
