import Foundation

/// An ``Interceptor`` that hands every ``NetworkEvent`` to a closure, for metrics and custom logging.
///
/// ```swift
/// let client = NetworkClient { $0.interceptors = [
///     EventMonitor { event in
///         if case .requestFinished(let metrics) = event {
///             print("\(metrics.attempts) attempts in \(metrics.duration) s")
///         }
///     }
/// ] }
/// ```
public struct EventMonitor: Interceptor {
    private let handler: @Sendable (NetworkEvent) -> Void

    /// Creates a monitor that calls `handler` with each event, inline on the request's task.
    public init(_ handler: @escaping @Sendable (NetworkEvent) -> Void) {
        self.handler = handler
    }

    /// Calls the handler.
    public func observe(_ event: NetworkEvent) {
        handler(event)
    }
}
