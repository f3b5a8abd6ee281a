import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps the delegate callbacks of a transfer session from piling up, so that a download's memory
/// stays flat however large the body and however slow the disk.
///
/// On Linux, FoundationNetworking hands every received chunk (16 KiB) to the delegate queue without
/// waiting for it to run, so a delegate slower than the network only makes the queue grow: a
/// 256 MiB body read by a slow delegate peaked at 314 MB. `suspend()` is no way out either, since
/// resuming a task suspended mid-transfer starts it again from the first byte. So the transfer
/// session's delegate queue (``BackpressureQueue``) calls ``enqueue()`` on the thread that queues
/// the callback (libcurl's), which waits while ``maximumPendingCallbacks`` are still to run.
///
/// That thread is shared by every `URLSession` of the process, so it may only ever wait for work
/// that is sure to finish soon: the library's own callbacks (writing a chunk to a file, handing one
/// to a stream's buffer), which run on a queue of their own and never wait for the caller. This is
/// what FoundationNetworking's own download tasks do, writing each chunk on that thread. A
/// ``ResponseStream``'s reader, which may take any time, is never waited for: the stream's buffer
/// is bounded instead.
///
/// ``open()`` lets everything through, for good: a transfer that is cancelled never blocks.
final class TransferGate: Sendable {
    private struct State {
        var pendingCallbacks = 0
        var isOpen = false
        var waiters = 0

        mutating func takeWaiters() -> Int {
            defer { waiters = 0 }
            return waiters
        }
    }

    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// At most this many delegate callbacks wait in the queue: 256 KiB of 16 KiB chunks.
    static let maximumPendingCallbacks = 16

    /// Whether the session's callbacks are behind (a slow disk), which the idle timeout does not count.
    var isHoldingBack: Bool {
        state.withLock { !$0.isOpen && $0.pendingCallbacks >= Self.maximumPendingCallbacks }
    }

    /// Counts a callback about to be queued, first waiting while too many are (Linux: on libcurl's thread).
    func enqueue() {
        while true {
            let mustWait = state.withLock { state -> Bool in
                if state.isOpen || state.pendingCallbacks < Self.maximumPendingCallbacks {
                    state.pendingCallbacks += 1
                    return false
                }
                state.waiters += 1
                return true
            }
            guard mustWait else { return }
            wakeUp.wait()
        }
    }

    /// Counts a queued callback as run.
    func dequeue() {
        let waiters = state.withLock { state in
            state.pendingCallbacks -= 1
            return state.takeWaiters()
        }
        signal(waiters)
    }

    /// Lets every callback through from now on, without waiting.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            return state.takeWaiters()
        }
        signal(waiters)
    }

    /// Closes the gate again for the next transfer on the same session.
    func reset() {
        state.withLock { $0.isOpen = false }
    }

    private func signal(_ waiters: Int) {
        for _ in 0..<waiters { wakeUp.signal() }
    }
}

#if canImport(FoundationNetworking)
    /// The delegate queue of a Linux transfer session: it runs callbacks one at a time, and makes
    /// the thread that queues them (libcurl's) wait at the ``TransferGate`` while too many are pending.
    ///
    /// FoundationNetworking queues every delegate callback with `addOperation(_:)`, so this is the
    /// one place where a transfer can be slowed down. The callbacks run on a serial queue of their
    /// own, not on the shared global threads: those can all be busy (two on a two-core machine),
    /// and the callbacks are what lets the waiting thread go on.
    ///
    /// It holds nothing but the gate and a dispatch queue, both `Sendable` and immutable; the
    /// `@unchecked Sendable` below is `OperationQueue`'s own conformance, which Swift requires
    /// every subclass to restate.
    final class BackpressureQueue: OperationQueue, @unchecked Sendable {
        private let gate: TransferGate
        /// Where the callbacks run; `underlyingQueue` does not keep it alive.
        private let callbackQueue = DispatchQueue(label: "NetworkLayer.transfer.delegate")

        init(gate: TransferGate) {
            self.gate = gate
            super.init()
            maxConcurrentOperationCount = 1
            name = "NetworkLayer.transfer"
            underlyingQueue = callbackQueue
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            gate.enqueue()
            let gate = self.gate
            super.addOperation {
                block()
                gate.dequeue()
            }
        }
    }
#endif
