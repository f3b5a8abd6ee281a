#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
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

    /// Tells why a server's certificate failed verification over AsyncHTTPClient, which does not say.
    ///
    /// NIOSSL reports every failed verification as BoringSSL's `CERTIFICATE_VERIFY_FAILED`, an
    /// expired certificate and one of an unknown authority alike (``AsyncHTTPClientFailure`` makes it
    /// `serverCertificateHasUnknownRoot`). To say which, the transport connects to the host once
    /// more, directly, reads the certificate the server presents in the TLS handshake, closes the
    /// connection before the handshake ends (nothing is sent), and compares the certificate's
    /// validity dates with the clock: an expired certificate becomes `serverCertificateHasBadDate`,
    /// one not yet valid `serverCertificateNotYetValid`. Otherwise, or when the check cannot be made
    /// within ``timeout`` (the host is gone, a proxy stands between), the error stays as it was.
    ///
    /// A certificate both expired and of an unknown authority is named expired here; over
    /// `URLSession` (OpenSSL) the unknown authority is named first.
    enum AsyncHTTPClientCertificateCheck {
        /// The longest the check may take, connection included.
        static let timeout: TimeAmount = .seconds(5)

        /// `error` with the code of the certificate's fault when it is a failed verification whose
        /// reason the certificate's dates tell; `error` itself otherwise.
        static func refined(_ error: APIError, client: HTTPClient) async -> APIError {
            guard case .requestFailed(let urlError) = error, urlError.code == .serverCertificateHasUnknownRoot,
                let underlying = urlError.userInfo[NSUnderlyingErrorKey] as? any Error,
                AsyncHTTPClientFailure.isCertificateVerificationFailure(underlying),
                let url = urlError.failingURL, let host = host(of: url),
                let certificate = await presentedCertificate(host: host, port: url.port ?? 443, group: client.eventLoopGroup)
            else { return error }
            let now = time(nil)
            let code: URLError.Code
            let description: String
            if certificate.notValidAfter < now {
                code = .serverCertificateHasBadDate
                description = "it was valid until \(Self.text(certificate.notValidAfter))"
            } else if certificate.notValidBefore > now {
                code = .serverCertificateNotYetValid
                description = "it is valid from \(Self.text(certificate.notValidBefore))"
            } else {
                return error
            }
            var userInfo = urlError.userInfo
            userInfo[NSLocalizedDescriptionKey] = description
            return .requestFailed(URLError(code, userInfo: userInfo))
        }

        /// The host to connect to: the URL's, without the brackets of an IPv6 literal.
        private static func host(of url: URL) -> String? {
            guard var host = url.host, !host.isEmpty else { return nil }
            if host.utf8.first == UInt8(ascii: "["), host.utf8.last == UInt8(ascii: "]") { host = String(host.dropFirst().dropLast()) }
            return host
        }

        /// The first certificate `host` presents in a TLS handshake on `port`, or `nil` when none
        /// comes within ``timeout``. The handshake is abandoned as soon as the certificate is in.
        private static func presentedCertificate(host: String, port: Int, group: any EventLoopGroup) async -> NIOSSLCertificate? {
            var configuration = TLSConfiguration.makeClientConfiguration()
            // Verification replaced by the callback below, which reads the certificate and refuses it.
            configuration.certificateVerification = .noHostnameVerification
            let eventLoop = group.next()
            // A group of Network.framework's (AsyncHTTPClient's default on Apple platforms) takes no POSIX bootstrap.
            guard let context = try? NIOSSLContext(configuration: configuration),
                let bootstrap = ClientBootstrap(validatingGroup: eventLoop)
            else { return nil }
            let presented = eventLoop.makePromise(of: NIOSSLCertificate?.self)
            // Completing a completed promise does nothing: the first of these wins.
            let timer = eventLoop.scheduleTask(in: timeout) { presented.succeed(nil) }
            // IP addresses cannot be a TLS server name (SNI).
            let serverName = isIPAddress(host) ? nil : host
            let connected =
                bootstrap
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = try NIOSSLClientHandler(
                            context: context, serverHostname: serverName,
                            customVerificationCallback: {
                                (certificates: [NIOSSLCertificate], verdict: EventLoopPromise<NIOSSLVerificationResult>) in
                                presented.succeed(certificates.first)
                                verdict.succeed(NIOSSLVerificationResult.failed)
                            })
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: host, port: port)
            connected.whenComplete { result in
                switch result {
                case .success(let channel): channel.closeFuture.whenComplete { _ in presented.succeed(nil) }
                case .failure: presented.succeed(nil)
                }
            }
            let certificate = await withTaskCancellationHandler {
                try? await presented.futureResult.get()
            } onCancel: {
                eventLoop.execute { presented.succeed(nil) }
            }
            timer.cancel()
            connected.whenSuccess { $0.close(promise: nil) }
            return certificate
        }

        private static func isIPAddress(_ host: String) -> Bool {
            var v4 = in_addr()
            var v6 = in6_addr()
            return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
        }

        /// `time` as an ISO 8601 date in UTC, for example `2020-01-02T00:00:00Z`.
        private static func text(_ time: time_t) -> String {
            Date(timeIntervalSince1970: TimeInterval(time)).formatted(.iso8601)
        }
    }
#endif
