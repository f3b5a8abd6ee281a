#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock, for the few places where state is shared across threads
/// (a cancellation handler racing a completion handler).
///
/// The value must be `Sendable`: what goes in may come out on another thread. `Mutex` from
/// Synchronization would do, but needs macOS 15 / iOS 18; this runs on every platform the package
/// supports. Copies share one value and one lock, kept together in a single allocation and reached
/// through a pointer, as SwiftNIO's `NIOLockedValueBox` keeps them: every request takes several of
/// these locks, so they must cost no more than the lock itself.
package struct Locked<Value: Sendable>: @unchecked Sendable {
    // Safety: the value is only reached while the lock is held, in `withLock`, and is Sendable; the
    // storage is a `ManagedBuffer`, whose own conformance to Sendable is unavailable.
    private let storage: Storage

    package init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    /// The value (the buffer's header) and its lock (its one element).
    private final class Storage: ManagedBuffer<Value, LockPrimitive> {
        static func make(_ value: Value) -> Storage {
            let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { initializeLock($0) }
            return storage
        }

        deinit {
            withUnsafeMutablePointerToElements { destroyLock($0) }
        }

        func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { value, lock in
                acquire(lock)
                defer { release(lock) }
                return try body(&value.pointee)
            }
        }
    }
}

#if canImport(Darwin)
    private typealias LockPrimitive = os_unfair_lock

    private func initializeLock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        lock.initialize(to: os_unfair_lock())
    }

    private func destroyLock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        lock.deinitialize(count: 1)
    }

    private func acquire(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        os_unfair_lock_lock(lock)
    }

    private func release(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        os_unfair_lock_unlock(lock)
    }
#else
    private typealias LockPrimitive = pthread_mutex_t

    private func initializeLock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        lock.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(lock, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    private func destroyLock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
    }

    private func acquire(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        let status = pthread_mutex_lock(lock)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
    }

    private func release(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        let status = pthread_mutex_unlock(lock)
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }
#endif
