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
    /// | A header line without a colon, or with a NUL byte; a `Content-Length` that is not a number; a chunk size that is not hexadecimal | -1 "Header without colon", "Nul byte in header", "Invalid Content-Length: value", "Illegal or missing hexadecimal sequence in chunked-encoding" | `badServerResponse` |
    /// | A compressed body that does not decompress | -1 "Error while processing content unencoding: incorrect header check" | `cannotDecodeContentData` |
    /// | The connection closed before any answer | -1011 "Empty reply from server" | `networkConnectionLost` |
    /// | The body cut short | -1 "transfer closed with 4000 bytes remaining to read" | `networkConnectionLost` |
    /// | The peer gone while sending | -1 "Send failure: Broken pipe" | `networkConnectionLost` |
    /// | A TLS handshake that fails (a server that does not speak TLS, say) | -1 "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number" | `secureConnectionFailed` |
    /// | A certificate that has expired | -1 "SSL certificate problem: certificate has expired" | `serverCertificateHasBadDate` |
    /// | A certificate that is not yet valid | -1 "SSL certificate problem: certificate is not yet valid" | `serverCertificateNotYetValid` |
    /// | A certificate of an authority the system does not trust | -1 "SSL certificate problem: unable to get local issuer certificate", "… self-signed certificate", … | `serverCertificateHasUnknownRoot` |
    /// | A certificate for another host | -1 "SSL: no alternative certificate subject name matches target host name '127.0.0.1'" | `serverCertificateUntrusted` |
    ///
    /// A URL whose host is an IPv6 literal (`http://[::1]:8080/`) fails in FoundationNetworking of
    /// Swift 6.3.1 with `badURL` before anything is sent (swift-corelibs-foundation#5496): its `URL`
    /// and libcurl disagree on the host's brackets. There is no form of the URL both accept, so
    /// ``URLSessionTransport`` refuses such a request with ``APIError/invalidRequest(_:)`` saying so
    /// (``ipv6LiteralHostError(_:)``) before every task, a redirect's included.
    enum FoundationNetworkingFailure {
        /// The error for a request to `url` when its host is an IPv6 literal, which FoundationNetworking
        /// cannot send to; `nil` for any other host.
        static func ipv6LiteralHostError(_ url: URL) -> APIError? {
            // Only a host in brackets holds a colon (RFC 3986, 3.2.2), so a URL without `[` has none: it
            // skips the parse below, which costs 1% of a loopback request.
            guard url.absoluteString.utf8.containsByte(UInt8(ascii: "[")) else { return nil }
            // The host as written, brackets included whatever `URL.host` does with them on this toolchain.
            guard let host = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedHost,
                host.utf8.contains(UInt8(ascii: ":")) || host.utf8.first == UInt8(ascii: "[")
            else { return nil }
            let literal = host.utf8.first == UInt8(ascii: "[") ? host : "[\(host)]"
            return .invalidRequest(
                "the host \(literal) is an IPv6 literal, which URLSession cannot send to with this toolchain's FoundationNetworking "
                    + "(it fails such URLs with badURL, swift-corelibs-foundation#5496); send over AsyncHTTPClientTransport "
                    + "(`NetworkClient(transport: .asyncHTTPClient())`, package trait AsyncHTTPClient), or use a host name for the address")
        }

        /// `error` with the code of its cause, or as it is when it already names it.
        /// - Parameters:
        ///   - error: The error a task completed with.
        ///   - headReceived: Whether the response head had arrived.
        static func byCause(_ error: URLError, headReceived: Bool) -> URLError {
            let detail = error.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
            var description = detail
            let tls = tlsCode(of: detail)
            let code: URLError.Code
            switch error.code {
            case .unsupportedURL where ["http", "https"].contains(error.failingURL?.scheme?.lowercased()):
                // The scheme is supported: libcurl uses the same result for a response it cannot read.
                code = .badServerResponse
            case .badServerResponse where detail == "Empty reply from server":
                code = .networkConnectionLost
            case .unknown where connectionLostMessages.contains(where: { detail.hasPrefix($0) }):
                code = .networkConnectionLost
            case .unknown where malformedResponseMessages.contains(where: { detail.hasPrefix($0) }):
                code = .badServerResponse
            case .unknown where detail.hasPrefix("Error while processing content unencoding"):
                code = .cannotDecodeContentData
            case .unknown where tls != nil:
                code = tls ?? .secureConnectionFailed
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

        /// The code of the TLS failure libcurl (with OpenSSL) describes as `message`, `nil` for a message
        /// of another kind. libcurl 7.88.1 writes a failed certificate verification as "SSL certificate
        /// problem: " and OpenSSL's verify error (`X509_verify_cert_error_string`), its own host name
        /// check as "SSL: … target host name …", and any other handshake failure as OpenSSL's error
        /// queue ("OpenSSL/3.0.19: error:…") or "OpenSSL SSL_connect: … in connection to …".
        static func tlsCode(of message: String) -> URLError.Code? {
            let verifyPrefix = "SSL certificate problem: "
            if message.hasPrefix(verifyPrefix) {
                switch message.dropFirst(verifyPrefix.count) {
                case "certificate has expired": return .serverCertificateHasBadDate
                case "certificate is not yet valid": return .serverCertificateNotYetValid
                case "hostname mismatch", "IP address mismatch": return .serverCertificateUntrusted
                // An unknown or self-signed issuer, a chain that is not valid, a revoked certificate.
                default: return .serverCertificateHasUnknownRoot
                }
            }
            if message == "SSL certificate verification failed" { return .serverCertificateHasUnknownRoot }
            if hostMismatchMessages.contains(where: { message.hasPrefix($0) }) { return .serverCertificateUntrusted }
            if handshakeMessages.contains(where: { message.hasPrefix($0) }) { return .secureConnectionFailed }
            return nil
        }

        /// How libcurl words a certificate that does not name the host it connected to.
        private static let hostMismatchMessages = [
            "SSL: no alternative certificate subject name matches target host name",
            "SSL: certificate subject name", "SSL: unable to obtain common name from peer certificate",
        ]

        /// How libcurl words any other TLS failure: the TLS library's own message, or its own.
        private static let handshakeMessages = ["OpenSSL/", "OpenSSL SSL_connect", "SSL ", "SSL: ", "TLS "]

        /// How libcurl words a response it cannot read: a header line without a colon or with a NUL
        /// byte, a `Content-Length` that is not a number, a chunk size that is not hexadecimal.
        private static let malformedResponseMessages = [
            "Header without colon", "Nul byte in header", "Invalid Content-Length", "Weird server reply",
            "Illegal or missing hexadecimal sequence in chunked-encoding", "Malformed encoding found in chunked-encoding",
            "Unsupported response code",
        ]

        /// How libcurl words a connection that ended under a transfer.
        private static let connectionLostMessages = [
            "transfer closed with", "Send failure:", "Recv failure:", "Failed sending data to the peer",
            "Failure when receiving data from the peer",
        ]
    }
#endif
