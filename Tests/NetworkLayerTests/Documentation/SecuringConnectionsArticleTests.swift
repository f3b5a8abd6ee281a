import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article SecuringConnections.md, run as written against servers of a private authority.
    @Suite("Article: Securing connections")
    struct SecuringConnectionsArticleTests {
        #if AsyncHTTPClient
            /// `GET /` to `base` through `client`.
            static func get(_ base: String, with client: NetworkClient) async throws -> String {
                try await client.send(TestEndpoint(base: base, path: "/", timeout: 20), as: String.self)
            }

            @Test(
                "Trusting a private authority, pinning a key and presenting a client certificate take a few lines each",
                arguments: TransportKind.all.filter { !$0.isURLSession })
            func snippets(transport: TransportKind) async throws {
                let servers = try await TLSPolicyServers.start()
                defer { servers.stop() }
                let caFile = servers.file("ca.pem")
                let clientCertificateFile = servers.file("client.pem")
                let clientKeyFile = servers.file("client.key")
                let currentKey = try servers.opensslHash("server.pem")
                let backupKey = try servers.opensslHash("ca.pem")

                // Trust a private authority
                let authority = try TLSPolicy.Certificates(contentsOf: caFile)  // PEM or DER, one or more certificates
                let client = NetworkClient(transport: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: .only(authority))))
                #expect(try await Self.get(servers.baseURL(.plain), with: client) == "ok")

                // Pin a public key
                do {
                    let policy = TLSPolicy(
                        trustRoots: .only(authority),
                        pins: [try TLSPolicy.PinSet(sha256: [currentKey, backupKey], hosts: ["api.example.com"])])
                    let client = NetworkClient(transport: try .asyncHTTPClient(tlsPolicy: policy))
                    #expect(try await Self.get(servers.baseURL(.plain), with: client) == "ok")
                }

                // Present a client certificate (with the private authority as the root, as the test server needs)
                do {
                    let identity = try TLSPolicy.ClientIdentity.pem(
                        certificateChainFile: clientCertificateFile, privateKeyFile: clientKeyFile)
                    let client = NetworkClient(
                        transport: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: .only(authority), clientIdentity: identity)))
                    #expect(try await Self.get(servers.baseURL(.mutual), with: client) == "ok")
                }
            }
        #endif

        #if canImport(FoundationNetworking)
            @Test("On Linux, URLSessionTransport refuses a policy it cannot honour, naming the transport that can")
            func linuxRefusal() throws {
                let policy = TLSPolicy(minimumVersion: .tls13)
                #expect(throws: APIError.self) { try URLSessionTransport(tlsPolicy: policy) }
            }
        #endif
    }
}
