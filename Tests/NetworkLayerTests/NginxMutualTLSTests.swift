import Foundation
import NetworkLayer
import TestSupport
import Testing

/// nginx, the most common mutual-TLS front end, refuses a missing or unknown client certificate after
/// the handshake, with a `400` whose built-in page says why: what <doc:SecuringConnections> and
/// <doc:HandlingErrors> tell users to expect.
@Suite("nginx and mutual TLS")
struct NginxMutualTLSTests {
    #if AsyncHTTPClient
        /// The outcome of a `GET /` to `nginx` with `identity`, trusting the certificates' authority.
        static func get(_ nginx: NginxServer, certificates: TemporaryDirectory, identity: TLSPolicy.ClientIdentity?) async throws
            -> Result<String, APIError>
        {
            let roots = try TLSPolicy.Certificates(contentsOf: certificates.file("ca.pem"))
            let transport = try AsyncHTTPClientTransport(tlsPolicy: TLSPolicy(trustRoots: .only(roots), clientIdentity: identity))
            return await TLSPolicyTransportTests.get(nginx.baseURL, over: transport)
        }

        @Test(
            "Over AsyncHTTPClient nginx serves the client's certificate, and answers 400 with its own words to a missing or unknown one",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func refusals(transport: TransportKind) async throws {
            let certificates = try await TLSPolicyServers.certificateDirectory()
            let nginx = try await onOwnThread { try NginxServer(certificates: certificates.url) }
            defer { nginx.stop() }
            let identity = try TLSPolicy.ClientIdentity.pem(
                certificateChainFile: certificates.file("client.pem"), privateKeyFile: certificates.file("client.key"))
            let served = try await Self.get(nginx, certificates: certificates, identity: identity)
            #expect((try? served.get()) == "ok", "\(served)")

            let stranger = try TLSPolicy.ClientIdentity.pem(
                certificateChainFile: certificates.file("rsa.pem"), privateKeyFile: certificates.file("client.key"))
            for (identity, words) in [(nil, "No required SSL certificate was sent"), (stranger, "The SSL certificate error")] {
                let refused = try await Self.get(nginx, certificates: certificates, identity: identity)
                guard case .failure(let error) = refused, case .unacceptableStatusCode(400, let response) = error else {
                    Issue.record("expected unacceptableStatusCode(400), got \(refused)")
                    continue
                }
                #expect(response.text?.contains(words) == true, "\(String(describing: response.text))")
                #expect(error.description.hasPrefix("The server answered 400 Bad Request: "), "\(error)")
                #expect(error.description.contains(words), "\(error)")
            }
        }
    #endif
}
