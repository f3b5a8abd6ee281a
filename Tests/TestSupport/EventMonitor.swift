import Foundation
import NetworkLayer

/// An ``Interceptor`` that hands every ``NetworkEvent`` to a closure, inline on the request's task:
/// what a test needs to watch a client's events.
public struct EventMonitor: Interceptor {
    private let handler: @Sendable (NetworkEvent) -> Void

    /// Creates a monitor that calls `handler` with each event.
    public init(_ handler: @escaping @Sendable (NetworkEvent) -> Void) {
        self.handler = handler
    }

    /// Calls the handler.
    public func observe(_ event: NetworkEvent) {
        handler(event)
    }
}
