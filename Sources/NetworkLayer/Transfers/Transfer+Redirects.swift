import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Transfer {
    /// Runs `attempt` with `request`, and on Linux runs it again with the new location when the
    /// transfer session declined a redirect that keeps the method so that the body would not be
    /// lost (see ``SessionDelegate``); up to 20 times, as URLSession itself.
    ///
    /// A declined redirect reaches here as the status failure of the redirect response: give the
    /// attempt's observer ``acceptedStatusCodes(_:for:carriesBody:)``, not the client's codes.
    /// - Parameter carriesBody: Whether a body goes beside the request (an upload task's); a
    ///   non-empty `httpBody` counts too, a streamed one does not (it cannot be sent twice).
    static func followingDeclinedRedirects<Value>(
        _ request: URLRequest,
        carriesBody: Bool,
        _ attempt: (URLRequest) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        #if canImport(FoundationNetworking)
            var request = request
            var redirects = 0
            while true {
                do {
                    return try await attempt(request)
                } catch {
                    guard case .unacceptableStatusCode(_, let response) = error,
                        let next = request.redirected(by: response, carriesBody: sendsBody(request, carriesBody: carriesBody))
                    else { throw error }
                    redirects += 1
                    guard redirects <= 20 else { throw .requestFailed(URLError(.httpTooManyRedirects)) }
                    request = next
                }
            }
        #else
            return try await attempt(request)
        #endif
    }

    /// The statuses a transfer of `request` takes for its answer: the client's, but on Linux without
    /// the redirects the transfer session declines when a body goes with the request, so that those
    /// are followed (by ``followingDeclinedRedirects(_:carriesBody:_:)``) even when the client
    /// accepts 3xx.
    static func acceptedStatusCodes(_ codes: Set<Int>, for request: URLRequest, carriesBody: Bool) -> Set<Int> {
        #if canImport(FoundationNetworking)
            if sendsBody(request, carriesBody: carriesBody) { return codes.subtracting(SessionDelegate.bodyRedirectStatusCodes) }
        #endif
        return codes
    }

    /// Whether a redirect of `request` would have a body to send again.
    private static func sendsBody(_ request: URLRequest, carriesBody: Bool) -> Bool {
        carriesBody || !(request.httpBody ?? Data()).isEmpty
    }
}
