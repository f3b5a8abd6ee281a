import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SessionTaskHandler {
    /// The failure of a response whose `Content-Length` fields disagree (`12` and `400`, which
    /// Foundation joins as `12, 400`): libcurl would take the last and read on to it, so a server, or
    /// anyone on the path, could make the body swallow the next response (RFC 9112 §6.3).
    static func conflictingContentLength(_ response: HTTPURLResponse) -> APIError? {
        #if canImport(FoundationNetworking)
            // A length FoundationNetworking could read as one number is one field: nothing to look up.
            if response.expectedContentLength >= 0 { return nil }
        #endif
        guard let value = response.value(forHTTPHeaderField: "Content-Length"), value.utf8.containsByte(UInt8(ascii: ",")) else {
            return nil
        }
        let lengths = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard lengths.count > 1 else { return nil }
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: "the response has conflicting Content-Length fields (\(value))"]
        userInfo[NSURLErrorFailingURLErrorKey] = response.url
        return .requestFailed(URLError(.badServerResponse, userInfo: userInfo))
    }

    /// The error a task completed with, as an ``APIError``; on Linux with the code of its cause (see
    /// ``FoundationNetworkingFailure``).
    static func apiError(_ error: any Error, headReceived: Bool) -> APIError {
        #if canImport(FoundationNetworking)
            if let error = error as? URLError {
                return APIError(transportError: FoundationNetworkingFailure.byCause(error, headReceived: headReceived))
            }
        #endif
        return APIError(transportError: error)
    }
}
