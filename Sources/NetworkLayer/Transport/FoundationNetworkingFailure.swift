#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    /// FoundationNetworking's transport errors with the code of what actually happened.
    ///
    /// FoundationNetworking turns libcurl's result into a `URLError` through a short table, so several
    /// causes arrive under a code that names another: a response whose status line is not HTTP comes
    /// as `unsupportedURL`, "the URL's scheme is not supported"; a connection closed before the answer
    /// as `badServerResponse`; a body cut short as `unknown`. The description FoundationNetworking gives
    /// (libcurl's message) is right, so each rule keeps it, and keeps the original error under
    /// `NSUnderlyingErrorKey`; only the code changes, so that the error's summary and ``RetryPolicy``
    /// go by the cause. Measured with libcurl 7.88.1:
    ///
    /// | What happened | FoundationNetworking says | Code given |
    /// |---|---|---|
    /// | A status line that is not HTTP | -1002 "Received HTTP/0.9 when not allowed" | `badServerResponse` |
    /// | A status below 100 | -1002 "Unsupported response code in HTTP response" | `badServerResponse` |
    /// | A header line over 100 KiB | -1 "Out of memory" | `badServerResponse` |
    /// | The connection closed before any answer | -1011 "Empty reply from server" | `networkConnectionLost` |
    /// | The body cut short | -1 "transfer closed with 4000 bytes remaining to read" | `networkConnectionLost` |
    /// | The peer gone while sending | -1 "Send failure: Broken pipe" | `networkConnectionLost` |
    /// | A TLS handshake that fails (a server that does not speak TLS, say) | -1 "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number" | `secureConnectionFailed` |
    enum FoundationNetworkingFailure {
        /// `error` with the code of its cause, or as it is when it already names it.
        /// - Parameters:
        ///   - error: The error a task completed with.
        ///   - headReceived: Whether the response head had arrived.
        static func byCause(_ error: URLError, headReceived: Bool) -> URLError {
            let detail = error.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
            var description = detail
            let code: URLError.Code
            switch error.code {
            case .unsupportedURL where ["http", "https"].contains(error.failingURL?.scheme?.lowercased()):
                // The scheme is supported: libcurl uses the same result for a response it cannot read.
                code = .badServerResponse
            case .badServerResponse where detail == "Empty reply from server":
                code = .networkConnectionLost
            case .unknown where connectionLostMessages.contains(where: { detail.hasPrefix($0) }):
                code = .networkConnectionLost
            case .unknown where tlsMessages.contains(where: { detail.hasPrefix($0) }):
                code = .secureConnectionFailed
            case .unknown where detail == "Out of memory" && !headReceived:
                // libcurl's answer to a response header line longer than it accepts.
                code = .badServerResponse
                description = "a header line of the response is longer than libcurl accepts (100 KiB), reported as \"Out of memory\""
            default:
                return error
            }
            var userInfo = error.userInfo
            userInfo[NSUnderlyingErrorKey] = error
            userInfo[NSLocalizedDescriptionKey] = description
            return URLError(code, userInfo: userInfo)
        }

        /// How libcurl words a TLS failure: the TLS library's own message, or its own.
        private static let tlsMessages = ["OpenSSL/", "SSL ", "TLS "]

        /// How libcurl words a connection that ended under a transfer.
        private static let connectionLostMessages = [
            "transfer closed with", "Send failure:", "Recv failure:", "Failed sending data to the peer",
            "Failure when receiving data from the peer",
        ]
    }
#endif
