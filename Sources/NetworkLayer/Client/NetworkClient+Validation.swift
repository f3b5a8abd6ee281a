import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkClient {
    /// This client, checking every response with `validate` before it is decoded: the
    /// ``APIClient/validate(_:)`` of a client you do not write yourself. Each call adds a check, run
    /// after the ones before it.
    ///
    /// ```swift
    /// let client = NetworkClient(transport: transport).validating { response in
    ///     if response.statusCode >= 400, let error = try? response.decode(ServerError.self) { throw error }
    /// }
    /// ```
    /// - Parameter validate: Throws your own error for a response that should fail the call; it
    ///   reaches the caller as ``APIError/validationFailed(_:_:)``.
    public func validating(_ validate: @escaping @Sendable (HTTPResponse) throws -> Void) -> NetworkClient {
        var client = self
        client.validations.append(validate)
        return client
    }

    /// Runs the checks ``validating(_:)`` added, in order.
    public func validate(_ response: HTTPResponse) throws {
        for validation in validations { try validation(response) }
    }
}
