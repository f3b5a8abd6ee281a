import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Transfer {
    /// Runs `attempt` with `request`, and on Linux runs it again with the new location when the
    /// transfer session declined a redirect that keeps the method so that the body would not be
    /// lost (see ``SessionDelegate``); up to 20 times, as URLSession itself.
    ///
    /// A declined redirect reaches here as the status failure of the redirect response.
    /// - Parameter carriesBody: Whether a body goes beside the request (an upload task's); one in
    ///   the request's `httpBody` counts too.
    static func followingDeclinedRedirects<Value>(
        _ request: URLRequest,
        carriesBody: Bool,
        _ attempt: (URLRequest) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        var request = request
        var redirects = 0
        while true {
            do {
                return try await attempt(request)
            } catch {
                #if canImport(FoundationNetworking)
                    if case .unacceptableStatusCode(_, let response) = error,
                        let next = request.redirected(by: response, carriesBody: carriesBody || SessionDelegate.hasBody(request))
                    {
                        redirects += 1
                        guard redirects <= 20 else { throw .requestFailed(URLError(.httpTooManyRedirects)) }
                        request = next
                        continue
                    }
                #endif
                throw error
            }
        }
    }
}
