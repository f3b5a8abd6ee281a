import Foundation
import NetworkLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The accept loop of the test servers, on a thread of its own: it owns the listening socket and
/// closes it when it ends.
///
/// Only the loop may close the listener. Were it closed elsewhere while the loop is between two
/// `accept`s, the next socket the process opens (another test's listener) could get its number, and
/// the loop would accept that server's connections and answer them with its own script. So stopping
/// marks the loop stopped and shuts the listener down, which wakes `accept`; the loop then closes it.
enum AcceptLoop {
    /// Starts accepting on `listener`, handing each connection to `handle` on the loop's thread,
    /// until `isStopped` is set and the listener shut down (see ``stop(_:isStopped:)``).
    static func start(_ listener: Int32, isStopped: Locked<Bool>, _ handle: @escaping @Sendable (Int32) -> Void) {
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                let failure = errno
                if isStopped.withLock({ $0 }) {
                    if connection >= 0 { close(connection) }
                    close(listener)
                    return
                }
                guard connection >= 0 else {
                    // Any other failure is the last connection's: on Linux `accept` reports a
                    // connection the client reset before it was accepted, and a signal interrupts it.
                    if failure == EBADF || failure == ENOTSOCK { return }
                    // Out of descriptors, say: wait a moment rather than spin.
                    if failure != EINTR { usleep(1_000) }
                    continue
                }
                handle(connection)
            }
        }
    }

    /// Stops the loop accepting on `listener`; returns whether it was running (a second stop does nothing).
    @discardableResult
    static func stop(_ listener: Int32, isStopped: Locked<Bool>) -> Bool {
        let wasStopped = isStopped.withLock { isStopped in
            defer { isStopped = true }
            return isStopped
        }
        guard !wasStopped else { return false }
        shutdown(listener, Int32(SHUT_RDWR))
        return true
    }
}
