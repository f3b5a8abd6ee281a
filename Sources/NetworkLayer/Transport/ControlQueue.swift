#if canImport(FoundationNetworking)
    import Dispatch

    /// A serial queue for the calls that wait on one session's FoundationNetworking work queue
    /// (creating, resuming and cancelling its tasks, answering its redirects), run on a few threads
    /// that every session shares.
    ///
    /// Each of those calls waits for the session's work queue, which needs a thread of its own to
    /// make progress. A dispatch queue per session took a thread per busy session, so a few hundred
    /// sessions busy at once used up libdispatch's threads (255 on Linux) and every one of them
    /// waited for a work queue that could no longer get a thread. Here at most
    /// ``ControlLanes/laneCount`` threads wait at once, in order per session, and a session whose
    /// work queue is slow to answer holds back only its own calls.
    struct ControlQueue: Sendable {
        private let id: UInt64

        init() {
            id = ControlLanes.shared.makeIdentifier()
        }

        /// Runs `job` after every job submitted to this queue before it, on one of the shared lanes.
        func async(execute job: @escaping @Sendable () -> Void) {
            ControlLanes.shared.enqueue(job, for: id)
        }
    }

    /// The threads every ``ControlQueue`` runs on: a fixed number of serial dispatch queues (lanes),
    /// each draining one control queue at a time and taking turns with the others that wait.
    final class ControlLanes: Sendable {
        /// How many jobs may wait on FoundationNetworking at once, process-wide: enough that a few
        /// slow sessions do not hold back the others, and few enough to leave libdispatch's other
        /// threads (FoundationNetworking's work queues among them) room.
        static let laneCount = 32

        /// The lanes of the process: one set, so that the bound holds for every session together.
        static let shared = ControlLanes()

        /// A call to make on a lane.
        typealias Job = @Sendable () -> Void

        private struct State {
            /// The jobs of each control queue that has some, or one running: that queue is on a lane or in ``waiting``.
            var jobs: [UInt64: [Job]] = [:]
            /// Control queues with jobs and no lane, first come first served.
            var waiting: [UInt64] = []
            var idleLanes = Array(0..<ControlLanes.laneCount)
            var nextIdentifier: UInt64 = 0
        }

        private let state = Locked(State())
        private let lanes = (0..<ControlLanes.laneCount).map { DispatchQueue(label: "NetworkLayer.transport.control.\($0)") }

        /// A new control queue's identifier, never handed out before.
        func makeIdentifier() -> UInt64 {
            state.withLock { state in
                defer { state.nextIdentifier += 1 }
                return state.nextIdentifier
            }
        }

        /// Runs `job` after the jobs `queue` has already: on an idle lane at once when `queue` has none
        /// and a lane is free, else when its turn comes.
        func enqueue(_ job: @escaping Job, for queue: UInt64) {
            let lane = state.withLock { state -> Int? in
                if state.jobs[queue] != nil {
                    state.jobs[queue, default: []].append(job)
                    return nil
                }
                state.jobs[queue] = [job]
                guard let lane = state.idleLanes.popLast() else {
                    state.waiting.append(queue)
                    return nil
                }
                return lane
            }
            guard let lane else { return }
            lanes[lane].async { self.drain(lane: lane, from: queue) }
        }

        /// Runs jobs on `lane`, one at a time, starting with `queue`'s; a queue with more jobs goes to
        /// the back of the line when others wait. The lane is idle again when no queue has jobs left.
        private func drain(lane: Int, from queue: UInt64) {
            var queue = queue
            while true {
                // A queue on a lane always has a job; were it ever without one, the lane goes idle.
                guard let job = state.withLock({ $0.jobs[queue]?.first }) else {
                    return state.withLock { $0.idleLanes.append(lane) }
                }
                job()
                let next = state.withLock { state -> UInt64? in
                    state.jobs[queue]?.removeFirst()
                    if state.jobs[queue]?.isEmpty ?? true {
                        state.jobs[queue] = nil
                    } else {
                        state.waiting.append(queue)
                    }
                    guard !state.waiting.isEmpty else {
                        state.idleLanes.append(lane)
                        return nil
                    }
                    return state.waiting.removeFirst()
                }
                guard let next else { return }
                queue = next
            }
        }
    }
#endif
