import Foundation

/// The result of `work`, run on a thread of its own: not one of Swift's cooperative threads nor of
/// Dispatch's pool (which the cooperative threads draw on on Linux), since it blocks.
///
/// A test that waits for a child process (`openssl`, `swiftc`, a shell) must wait here: on two cores
/// the cooperative pool has two threads, and a test blocking them stalls every other test of the run
/// (a stubbed call then misses a deadline it would meet with time to spare).
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The result of `work`, whose jobs run on a queue of their own rather than on Swift's cooperative
/// threads: for a test whose hook must block inside a call (a storage or a delegate that waits for
/// another task), so that the wait holds no cooperative thread (see the function above).
///
/// Child tasks of `work` run there too; unstructured tasks it starts (`Task { }`) do not.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
public func onOwnThread<Value: Sendable>(_ work: @Sendable () async throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(QueueExecutor()) { try await work() }
}

/// A task executor that runs its jobs, one at a time, on a Dispatch queue of its own.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
private final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "TestSupport.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
