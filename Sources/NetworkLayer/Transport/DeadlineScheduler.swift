import Dispatch

/// One timer for the deadlines of every request in the process, instead of a timer per request.
///
/// A `DispatchSource` timer per request costs its creation, scheduling and cancellation, and a
/// wake-up of dispatch's timer thread each time: measurable next to a loopback request. Here a
/// request's deadline is an entry in a min-heap, and a single timer is armed for the earliest one.
/// Most requests finish long before their deadline, so finishing only forgets the entry (the heap
/// drops it when it comes to the top), and a run of requests with the same timeout re-arms nothing:
/// each new deadline is later than the one the timer already waits for.
final class DeadlineScheduler: Sendable {
    /// The scheduler every transport call uses.
    static let shared = DeadlineScheduler()

    fileprivate struct Entry {
        let deadline: UInt64
        let id: UInt64
    }

    fileprivate struct State {
        /// Deadlines by `deadline`, earliest first; entries no longer in `pending` are left to drop out.
        var heap: [Entry] = []
        var pending: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// The deadline the timer is armed for, `nil` while it is idle.
        var armedFor: UInt64?
    }

    private let state = Locked(State())
    /// Armed only under the lock of `state`; a dispatch source may be used from any thread.
    private nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "NetworkLayer.deadlines"))

    private init() {
        timer.setEventHandler { [self] in fire() }
        timer.activate()
    }

    /// Runs `action` once `deadline` has passed, unless ``cancel(_:)`` comes first.
    /// - Returns: The token that cancels it.
    func schedule(at deadline: DispatchTime, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = action
            state.dropForgottenTop()
            state.push(Entry(deadline: deadline.uptimeNanoseconds, id: id))
            if state.armedFor.map({ deadline.uptimeNanoseconds < $0 }) ?? true {
                arm(&state, for: deadline.uptimeNanoseconds)
            }
            return id
        }
    }

    /// Forgets the deadline of `token`: its action will not run.
    func cancel(_ token: UInt64) {
        state.withLock { state in
            _ = state.pending.removeValue(forKey: token)
        }
    }

    /// Runs the actions whose deadline has passed, and re-arms the timer for the next one.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            while let top = state.heap.first, top.deadline <= now {
                state.popTop()
                if let action = state.pending.removeValue(forKey: top.id) { due.append(action) }
            }
            state.dropForgottenTop()
            state.armedFor = nil
            if let next = state.heap.first { arm(&state, for: next.deadline) }
            return due
        }
        for action in due { action() }
    }
}

extension DeadlineScheduler {
    private func arm(_ state: inout State, for deadline: UInt64) {
        state.armedFor = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
    }
}

extension DeadlineScheduler.State {
    /// Pops the entries at the top whose request has finished, and rebuilds the heap when forgotten
    /// entries deeper down (requests that finished out of order) outnumber the live ones.
    fileprivate mutating func dropForgottenTop() {
        while let top = heap.first, pending[top.id] == nil { popTop() }
        if heap.count > 64, heap.count > 4 * pending.count {
            let live = heap.filter { pending[$0.id] != nil }
            heap = []
            heap.reserveCapacity(live.count)
            for entry in live { push(entry) }
        }
    }

    fileprivate mutating func push(_ entry: DeadlineScheduler.Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    fileprivate mutating func popTop() {
        guard heap.count > 1 else {
            heap.removeAll(keepingCapacity: true)
            return
        }
        heap[0] = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
