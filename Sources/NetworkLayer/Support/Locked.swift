import Foundation

/// A value guarded by a lock, for the few places where state is shared across threads
/// (a cancellation handler racing a completion handler).
///
/// The value must be `Sendable`: what goes in may come out on another thread. `Mutex` from
/// Synchronization would do, but needs macOS 15 / iOS 18; this runs on every platform the package
/// supports.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safety: `value` is only read or written while `lock` is held, in `withLock`, and is Sendable.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
