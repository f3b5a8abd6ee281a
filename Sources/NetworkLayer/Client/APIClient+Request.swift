import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Sends `request` and returns its body decoded as the request's `Value`, throwing the ``APIError``
    /// that stopped it; ``send(_:as:)`` with the type inferred from the request.
    ///
    /// ```swift
    /// let page = try await client.send(.popular(page: 1))   // Request<MoviePage>.popular
    /// ```
    public func send<Value>(_ request: Request<Value>) async throws(APIError) -> Value {
        try await send(request, as: Value.self)
    }

    /// Sends `request` and returns its body decoded as the request's `Value`, or the ``APIError``
    /// that stopped it, as a `Result`; ``fetch(_:as:)`` with the type inferred from the request.
    public func fetch<Value>(_ request: Request<Value>) async -> Result<Value, APIError> {
        await fetch(request, as: Value.self)
    }

    /// Sends `request` and returns its body decoded as the request's `Value`, with the response it
    /// came from; ``response(for:as:)`` with the type inferred from the request.
    public func response<Value>(for request: Request<Value>) async throws(APIError) -> Response<Value> {
        try await response(for: request, as: Value.self)
    }
}
