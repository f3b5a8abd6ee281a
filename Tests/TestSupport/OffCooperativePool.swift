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
