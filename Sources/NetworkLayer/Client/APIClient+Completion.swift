import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `endpoint`, decodes the body as `T` and calls `completion` exactly once on ``ClientConfiguration/callbackQueue``.
    ///
    /// The same path as ``fetch(_:as:)``, for code that is not `async`. Cancelling the returned
    /// handle cancels the request, and `completion` receives ``APIError/cancelled``.
    /// - Parameters:
    ///   - endpoint: The request to send.
    ///   - type: The type to decode; inferred from `completion` by default.
    ///   - completion: Called once with the result, on ``ClientConfiguration/callbackQueue``.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func fetch<T: Decodable & Sendable>(
        _ endpoint: some Endpoint,
        as type: T.Type = T.self,
        completion: @escaping @Sendable (Result<T, APIError>) -> Void
    ) -> RequestHandle {
        // The endpoint need not be Sendable, so the call is built here, before any hop.
        let call = Result { () throws(APIError) in try makeCall(for: endpoint) }
        let queue = configuration.callbackQueue
        return RequestHandle(
            operation: {
                switch call {
                case .success(let call): await fetch(call, as: type)
                case .failure(let error): .failure(error)
                }
            },
            completion: { result in queue.async { completion(result) } }
        )
    }
}

/// A request started with a completion handler; ``cancel()`` stops it.
public final class RequestHandle: Sendable {
    private let task: Task<Void, Never>

    init<T: Sendable>(
        operation: @escaping @Sendable () async -> Result<T, APIError>,
        completion: @escaping @Sendable (Result<T, APIError>) -> Void
    ) {
        task = Task { completion(await operation()) }
    }

    /// Cancels the request; its completion then receives ``APIError/cancelled`` unless it had already finished.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        task.isCancelled
    }
}
