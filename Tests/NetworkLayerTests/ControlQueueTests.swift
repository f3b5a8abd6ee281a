#if canImport(FoundationNetworking)
    import Foundation
    @testable import NetworkLayer
    import Testing

    /// The queues the Linux transport creates, resumes and cancels tasks on: in order per session, on a
    /// bounded number of threads, and a session whose calls wait holds back no other.
    @Suite("Control queues")
    struct ControlQueueTests {
        @Test("Jobs run in order per queue, several queues at once, never more than the lanes")
        func orderAndBound() async {
            let queues = (0..<100).map { _ in ControlQueue() }
            let ran = Locked([[Int]](repeating: [], count: queues.count))
            let running = Locked((now: 0, most: 0))
            await withTaskGroup(of: Void.self) { group in
                for (number, queue) in queues.enumerated() {
                    group.addTask {
                        for index in 0..<20 {
                            queue.async {
                                running.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
                                usleep(500)
                                running.withLock { $0.now -= 1 }
                                ran.withLock { $0[number].append(index) }
                            }
                        }
                    }
                }
            }
            #expect(await eventually { ran.withLock { $0.allSatisfy { $0.count == 20 } } })
            #expect(ran.withLock { $0.allSatisfy { $0 == Array(0..<20) } })
            let most = running.withLock { $0.most }
            #expect(most > 1, "queues ran side by side")
            #expect(most <= ControlLanes.laneCount)
        }

        @Test("A queue whose job waits holds back its own later jobs only")
        func slowQueueAlone() async {
            let slow = ControlQueue()
            let release = DispatchSemaphore(value: 0)
            let slowDone = Locked(false)
            slow.async { release.wait() }
            slow.async { slowDone.withLock { $0 = true } }
            let others = Locked(0)
            for _ in 0..<(ControlLanes.laneCount * 4) {
                let queue = ControlQueue()
                queue.async { others.withLock { $0 += 1 } }
            }
            #expect(await eventually { others.withLock { $0 } == ControlLanes.laneCount * 4 })
            #expect(slowDone.withLock { $0 } == false)
            release.signal()
            #expect(await eventually { slowDone.withLock { $0 } })
        }
    }
#endif
