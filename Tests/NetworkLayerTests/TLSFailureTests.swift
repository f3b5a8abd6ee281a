import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOSSL
#endif

/// A failed TLS connection comes back with the `URLError` code of its cause, and a description that
/// names it, over every transport: an untrusted authority, an expired or not yet valid certificate,
/// a certificate for another host, a handshake that fails.
@Suite("TLS failures by cause")
struct TLSFailureTests {
    /// The `URLError` of a `GET` to `base` that failed with ``APIError/requestFailed(_:)``, and the
    /// error's description; `nil` (and a recorded issue) for any other outcome.
    static func failure(of client: NetworkClient, at base: String) async -> (URLError, String)? {
        let result = await client.fetch(TestEndpoint(base: base, path: "/", timeout: 20), as: String.self)
        guard case .failure(let error) = result, case .requestFailed(let urlError) = error else {
            Issue.record("expected .requestFailed, got \(result)")
            return nil
        }
        return (urlError, error.description)
    }

    @Test(
        "A certificate of an authority the client does not trust fails with serverCertificateHasUnknownRoot, saying so",
        arguments: TransportKind.all)
    func untrusted(transport: TransportKind) async throws {
        let servers = try await onOwnThread { try TLSServers() }
        defer { servers.stop() }
        let client = transport.makeClient()
        for certificate in [TLSServers.Certificate.valid, .selfSigned] {
            let failure = await Self.failure(of: client, at: servers.baseURL(certificate))
            #expect(failure?.0.code == .serverCertificateHasUnknownRoot, "\(certificate): \(String(describing: failure))")
            #expect(
                failure?.1.hasPrefix("Request failed: the server's certificate is not signed by an authority this client trusts") == true,
                "\(certificate): \(String(describing: failure))")
        }
    }

    @Test("Each certificate fault has its own code and words in APIError's description")
    func summaries() {
        let expected: [(URLError.Code, String)] = [
            (.serverCertificateHasBadDate, "the server's certificate has expired"),
            (.serverCertificateNotYetValid, "the server's certificate is not yet valid"),
            (.serverCertificateHasUnknownRoot, "the server's certificate is not signed by an authority this client trusts"),
            (.serverCertificateUntrusted, "the server's certificate is not valid for this host"),
            (.secureConnectionFailed, "the TLS handshake failed"),
        ]
        for (code, words) in expected {
            #expect(APIError.requestFailed(URLError(code)).description == "Request failed: \(words) [URLError \(code.rawValue)]")
        }
    }

    #if canImport(FoundationNetworking)
        /// What libcurl 7.88.1 with OpenSSL 3.0.19 writes for each fault (FoundationNetworking's `URLError`
        /// -1 carries it as its description), and the code it must become.
        static let libcurlMessages: [(String, URLError.Code)] = [
            ("SSL certificate problem: certificate has expired", .serverCertificateHasBadDate),
            ("SSL certificate problem: certificate is not yet valid", .serverCertificateNotYetValid),
            ("SSL certificate problem: unable to get local issuer certificate", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: self-signed certificate", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: self-signed certificate in certificate chain", .serverCertificateHasUnknownRoot),
            ("SSL: no alternative certificate subject name matches target host name '127.0.0.1'", .serverCertificateUntrusted),
            ("SSL: certificate subject name 'other.invalid' does not match target host name 'localhost'", .serverCertificateUntrusted),
            ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", .secureConnectionFailed),
            ("OpenSSL SSL_connect: Connection reset by peer in connection to 127.0.0.1:443 ", .secureConnectionFailed),
        ]

        @Test(
            "On Linux, libcurl's words for each TLS fault become that fault's code over URLSession, the words kept",
            arguments: libcurlMessages.indices)
        func libcurlMessage(index: Int) async throws {
            let (message, code) = Self.libcurlMessages[index]
            let stubs = StubSession()
            let url = try #require(URL(string: "https://api.example.com/items"))
            stubs.register(
                .get, "/items",
                .failure(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: url])))
            let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
            let error = await #expect(throws: APIError.self) { try await client.send(TestEndpoint(), as: String.self) }
            guard case .requestFailed(let urlError) = error else {
                Issue.record("expected .requestFailed, got \(String(describing: error))")
                return
            }
            #expect(urlError.code == code, "\(message)")
            #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        }
    #endif

    #if AsyncHTTPClient
        /// A client trusting the private authority of `servers`, following no redirects; shut it down after use.
        static func trustingClient(_ servers: TLSServers) throws -> HTTPClient {
            var configuration = AsyncHTTPClientTransport.defaultConfiguration()
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(servers.authorityFile.path))
            configuration.tlsConfiguration = tls
            configuration.redirectConfiguration = .disallow
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }

        @Test(
            "Over AsyncHTTPClient trusting the authority, expired, not yet valid and another host's certificates each have their own code",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func byCause(transport: TransportKind) async throws {
            let servers = try await onOwnThread { try TLSServers() }
            defer { servers.stop() }
            let httpClient = try Self.trustingClient(servers)
            let client = NetworkClient(transport: .asyncHTTPClient(httpClient)) { $0.timeout = 20 }
            // Trusted, in date and for this host: served.
            let served = await client.fetch(TestEndpoint(base: servers.baseURL(.valid), path: "/"), as: String.self)
            #expect((try? served.get()) == "ok", "\(served)")
            let expected: [(TLSServers.Certificate, URLError.Code, String)] = [
                (.expired, .serverCertificateHasBadDate, "the server's certificate has expired: it was valid until 2020-01-02T00:00:00Z"),
                (
                    .notYetValid, .serverCertificateNotYetValid,
                    "the server's certificate is not yet valid: it is valid from 2090-01-01T00:00:00Z"
                ),
                (
                    .wrongHost, .serverCertificateUntrusted,
                    "the server's certificate is not valid for this host: it does not name 127.0.0.1, the host the request was sent to"
                ),
                (
                    .selfSigned, .serverCertificateHasUnknownRoot,
                    "the server's certificate is not signed by an authority this client trusts"
                ),
            ]
            for (certificate, code, words) in expected {
                let failure = await Self.failure(of: client, at: servers.baseURL(certificate))
                #expect(failure?.0.code == code, "\(certificate): \(String(describing: failure))")
                #expect(failure?.1.hasPrefix("Request failed: \(words)") == true, "\(certificate): \(String(describing: failure))")
            }
            try await httpClient.shutdown()
        }
    #endif
}
