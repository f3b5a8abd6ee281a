#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// AsyncHTTPClient's and SwiftNIO's errors as the ``APIError``s a `URLSession` would give for the
    /// same cause, so that an application and ``RetryPolicy`` see one set of errors whichever
    /// transport sends.
    ///
    /// Timeouts are ``APIError/timedOut`` and cancellation ``APIError/cancelled``; everything else
    /// is ``APIError/requestFailed(_:)`` with the `URLError` code of its cause and the original
    /// error's own words as its description (and the error itself under `NSUnderlyingErrorKey`):
    ///
    /// | What happened | Code |
    /// |---|---|
    /// | Connection refused, no route, connect failed | `cannotConnectToHost` |
    /// | The host name did not resolve | `cannotFindHost` |
    /// | A certificate that has expired | `serverCertificateHasBadDate` |
    /// | A certificate that is not yet valid | `serverCertificateNotYetValid` |
    /// | A certificate of an authority the client does not trust, or whose chain is not valid | `serverCertificateHasUnknownRoot` |
    /// | A certificate for another host | `serverCertificateUntrusted` |
    /// | The server's alert that a client certificate is required (TLS 1.3) | `clientCertificateRequired` |
    /// | The server's alert refusing the client's certificate | `clientCertificateRejected` |
    /// | Any other TLS handshake failure | `secureConnectionFailed` |
    /// | The connection closed or reset under the exchange, a body cut short | `networkConnectionLost` |
    /// | A response that is not HTTP, or breaks its framing | `badServerResponse` |
    /// | A compressed body that does not decompress | `cannotDecodeContentData` |
    /// | A compressed body past the client's own decompression limit | `dataLengthExceedsMaximum` |
    /// | Too many redirects, or a redirect loop | `httpTooManyRedirects` |
    /// | A URL without a host, or of a scheme other than HTTP(S) | `badURL`, `unsupportedURL` |
    ///
    /// A request body that is not the length it announced (a file that changed while it was sent) is
    /// ``APIError/invalidRequest(_:)``: the request's fault, not the network's.
    ///
    /// NIOSSL reports every certificate that fails verification alike, as BoringSSL's
    /// `CERTIFICATE_VERIFY_FAILED`, without the reason; such a failure is first
    /// `serverCertificateHasUnknownRoot`, and ``AsyncHTTPClientCertificateCheck`` then reads the
    /// certificate's dates to tell an expired or not yet valid one.
    enum AsyncHTTPClientFailure {
        /// `error` as an ``APIError``.
        /// - Parameters:
        ///   - error: What AsyncHTTPClient reported.
        ///   - headReceived: Whether the response head had arrived (a connection closed before it
        ///     is a connection lost, as is one closed during the body).
        ///   - url: The request's URL, kept as the `URLError`'s failing URL.
        static func apiError(_ error: any Error, headReceived: Bool, url: URL?) -> APIError {
            if let error = error as? APIError { return error }
            if let mismatch = error as? AsyncHTTPClientPinCheck.Mismatch {
                return .certificatePinMismatch(host: url?.host ?? "", seen: mismatch.seen)
            }
            if error is CancellationError { return .cancelled }
            if let error = error as? HTTPClientError {
                switch error {
                case .cancelled, .requestStreamCancelled:
                    return .cancelled
                case .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout, .deadlineExceeded,
                    .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                    return .timedOut
                case .traceRequestWithBody:
                    return .invalidRequest("AsyncHTTPClient refused the request: \(error.shortDescription.lowercased())")
                case .bodyLengthMismatch:
                    return .invalidRequest(
                        "the request body was not the length it announced (a file that changed while it was sent, say)")
                default:
                    if ["Invalid header field names", "Invalid header field values"].contains(error.shortDescription) {
                        // Its description carries the values it refused, a token among them: its name alone.
                        return .invalidRequest(
                            "AsyncHTTPClient refused the request: \(error.shortDescription.lowercased()) "
                                + "(a line break or another control character in a header)")
                    }
                    return requestFailed(code(of: error), error, description: error.shortDescription, url: url)
                }
            }
            if isDecompressionLimit(error) {
                return requestFailed(
                    .dataLengthExceedsMaximum, error,
                    description: "the compressed body inflated past the decompression limit of the HTTPClient's configuration "
                        + "(its `decompression`); a client made from AsyncHTTPClientTransport.defaultConfiguration() has none, "
                        + "and ResponseLimits bound the decompressed body instead",
                    url: url)
            }
            if let error = error as? ChannelError, case .connectTimeout = error { return .timedOut }
            if let error = error as? IOError, error.errnoCode == ETIMEDOUT { return .timedOut }
            if let code = clientCertificateRefusal(error) {
                return requestFailed(code, error, description: String(describing: error), url: url)
            }
            if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
                // NIOSSL names the server name it sent, `<none>` for an IP address (which has none).
                let host = url.flatMap(\.host).map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 } ?? "the host"
                return requestFailed(
                    .serverCertificateUntrusted, error,
                    description: "it does not name \(host), the host the request was sent to", url: url)
            }
            if isCertificateVerificationFailure(error) {
                return requestFailed(
                    .serverCertificateHasUnknownRoot, error, description: "certificate verification failed (CERTIFICATE_VERIFY_FAILED)",
                    url: url)
            }
            return requestFailed(code(of: error), error, description: String(describing: error), url: url)
        }

        /// Whether a request that failed with `error` before any response may be sent again on
        /// another connection: when its connection went away, if the request never went out or
        /// its method is idempotent; and, for an idempotent method, when what came back was not a
        /// response at all (what a server leaves behind on a connection it then closes, say).
        ///
        /// A server closing a kept-alive connection as a request arrives on it, without having read
        /// the request, is the everyday cause; HTTP allows idempotent requests to be sent again
        /// (RFC 9110, section 9.2.2), and a request that never went out was never seen.
        static func mayResend(after error: any Error, method: NIOHTTP1.HTTPMethod, requestHeadSent: Bool) -> Bool {
            let isIdempotent = [NIOHTTP1.HTTPMethod.GET, .HEAD, .OPTIONS, .TRACE, .PUT, .DELETE].contains(method)
            if code(of: error) == .networkConnectionLost || (error as? HTTPClientError) == .remoteConnectionClosed {
                return isIdempotent || !requestHeadSent
            }
            return isIdempotent && error is HTTPParserError
        }

        /// Whether `error` is SwiftNIO's `NIOHTTPDecompression.DecompressionError.limit`: a body that
        /// inflated past the decompression limit of the client's configuration (named by type and case,
        /// so that NetworkLayer needs no dependency on NIOHTTPCompression).
        static func isDecompressionLimit(_ error: any Error) -> Bool {
            String(reflecting: type(of: error)) == "NIOHTTPCompression.NIOHTTPDecompression.DecompressionError"
                && String(describing: error) == "limit"
        }

        private static func requestFailed(_ code: URLError.Code, _ error: any Error, description: String, url: URL?) -> APIError {
            var userInfo: [String: Any] = [NSUnderlyingErrorKey: error, NSLocalizedDescriptionKey: description]
            if let url { userInfo[NSURLErrorFailingURLErrorKey] = url }
            return .requestFailed(URLError(code, userInfo: userInfo))
        }

        private static func code(of error: HTTPClientError) -> URLError.Code {
            switch error {
            case .remoteConnectionClosed, .uncleanShutdown: .networkConnectionLost
            case .redirectLimitReached, .redirectCycleDetected: .httpTooManyRedirects
            case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath: .badURL
            case .proxyAuthenticationRequired: .userAuthenticationRequired
            case .invalidProxyResponse, .identityCodingIncorrectlyPresent, .contentLengthMissing:
                .badServerResponse
            default: error.shortDescription == "Unsupported scheme" ? .unsupportedURL : .unknown
            }
        }

        private static func code(of error: any Error) -> URLError.Code {
            switch error {
            case let error as NIOConnectionError:
                return error.dnsAError != nil || error.dnsAAAAError != nil ? .cannotFindHost : .cannotConnectToHost
            case is SocketAddressError:
                return .cannotFindHost
            case let error as IOError:
                switch error.errnoCode {
                case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL: return .cannotConnectToHost
                case ECONNRESET, EPIPE, ECONNABORTED: return .networkConnectionLost
                default: return .unknown
                }
            case let error as ChannelError:
                switch error {
                case .ioOnClosedChannel, .alreadyClosed, .eof, .inputClosed, .outputClosed: return .networkConnectionLost
                default: return .unknown
                }
            case let error as HTTPParserError:
                // A body cut short: the connection ended before the length the head announced.
                return error == .invalidEOFState || error == .closedConnection ? .networkConnectionLost : .badServerResponse
            case let error as NIOSSLError:
                // A TLS connection closed without its closing message: cut short, as a plain one would be.
                return error == .uncleanShutdown ? .networkConnectionLost : .secureConnectionFailed
            case let error as NIOSSLExtraError:
                return error == .failedToValidateHostname ? .serverCertificateUntrusted : .secureConnectionFailed
            default:
                let type = String(reflecting: Swift.type(of: error))
                if type.hasPrefix("NIOSSL.") { return .secureConnectionFailed }
                // Named by module, so that NetworkLayer needs no dependency on NIOHTTPCompression to tell it.
                if type.hasPrefix("NIOHTTPCompression.") { return .cannotDecodeContentData }
                return .unknown
            }
        }

        /// The code of a TLS alert by which the server refused the client's certificate (mutual TLS):
        /// `clientCertificateRequired` for TLS 1.3's `certificate_required`, `clientCertificateRejected`
        /// for an alert about the certificate the client sent; `nil` for any other error (a TLS 1.2
        /// server refusing with a bare `handshake_failure` stays `secureConnectionFailed`).
        static func clientCertificateRefusal(_ error: any Error) -> URLError.Code? {
            guard error is NIOSSLError || error is BoringSSLError else { return nil }
            let text = String(describing: error)
            if text.contains("ALERT_CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
            let rejections = [
                "ALERT_BAD_CERTIFICATE", "ALERT_UNKNOWN_CA", "ALERT_CERTIFICATE_UNKNOWN", "ALERT_UNSUPPORTED_CERTIFICATE",
                "ALERT_CERTIFICATE_REVOKED", "ALERT_CERTIFICATE_EXPIRED",
            ]
            return rejections.contains(where: text.contains) ? .clientCertificateRejected : nil
        }

        /// Whether `error` is a certificate that failed BoringSSL's verification (not the host name
        /// check, which NIOSSL makes itself): `CERTIFICATE_VERIFY_FAILED`, whatever the reason.
        static func isCertificateVerificationFailure(_ error: any Error) -> Bool {
            guard let error = error as? NIOSSLError, case .handshakeFailed(.sslError(let stack)) = error else { return false }
            return stack.contains { String(describing: $0).contains("CERTIFICATE_VERIFY_FAILED") }
        }
    }
#endif
