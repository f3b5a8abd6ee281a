import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``TLSPolicy`` says clearly what is wrong with it when it is made, and hashes public keys as
/// `openssl` does.
@Suite("TLS policy")
struct TLSPolicyTests {
    static let key1 = Data(repeating: 1, count: 32).base64EncodedString()
    static let key2 = Data(repeating: 2, count: 32).base64EncodedString()

    /// The pin of the certificate file `name` in `directory`, as `openssl` computed it.
    static func opensslHash(in directory: TemporaryDirectory, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.file("\(name).pin")), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("A certificate's public-key hash is openssl's RFC 7469 hash, for RSA and EC keys, from PEM and DER")
    func publicKeyHashes() async throws {
        let servers = try await TLSPolicyServers.certificateDirectory()
        for name in ["rsa.pem", "server.pem", "ca.pem"] {
            let expected = try Self.opensslHash(in: servers, name)
            #expect(try TLSPolicy.Certificates(contentsOf: servers.file(name)).publicKeyHashes == [expected], "\(name)")
            #expect(try TLSPolicy.Certificates(contentsOf: servers.file("\(name).der")).publicKeyHashes == [expected], "\(name) DER")
        }
        let both = try Data(contentsOf: servers.file("server.pem")) + Data(contentsOf: servers.file("ca.pem"))
        #expect(
            try TLSPolicy.Certificates(both).publicKeyHashes == [
                Self.opensslHash(in: servers, "server.pem"), Self.opensslHash(in: servers, "ca.pem"),
            ])
    }

    @Test("A pin set of fewer than two different hashes is refused with invalidTLSPolicy, saying a backup is needed")
    func fewerThanTwoPins() {
        for hashes in [[], [Self.key1], [Self.key1, Self.key1]] {
            let error = #expect(throws: APIError.self) { try TLSPolicy.PinSet(sha256: hashes) }
            #expect(error?.description.contains("at least two different hashes") == true, "\(String(describing: error))")
        }
        #expect(throws: Never.self) { try TLSPolicy.PinSet(sha256: [Self.key1, Self.key2]) }
    }

    @Test("A pin that is not base64 of 32 bytes is refused with invalidTLSPolicy, naming it")
    func badPin() {
        for pin in ["not base64!", Data(repeating: 1, count: 20).base64EncodedString(), "sha256/\(Self.key1)"] {
            let error = #expect(throws: APIError.self) { try TLSPolicy.PinSet(sha256: [pin, Self.key2]) }
            guard case .invalidTLSPolicy(let reason) = error else {
                Issue.record("expected invalidTLSPolicy, got \(String(describing: error))")
                continue
            }
            #expect(reason.contains(pin))
        }
    }

    @Test("Unreadable certificates and keys are refused with invalidTLSPolicy, never a crash")
    func unreadable() async throws {
        let garbage = Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)
        #expect(throws: APIError.invalidTLSPolicy("PEM certificate 1 of 1 is not a readable X.509 certificate")) {
            try TLSPolicy.Certificates(garbage)
        }
        let empty = #expect(throws: APIError.self) { try TLSPolicy.Certificates(Data("hello".utf8)) }
        #expect(empty?.description.contains("no certificate found") == true)
        let missing = URL(fileURLWithPath: "/nonexistent/ca.pem")
        let unreadable = #expect(throws: APIError.self) { try TLSPolicy.Certificates(contentsOf: missing) }
        #expect(unreadable?.description.contains("/nonexistent/ca.pem") == true)
        let servers = try await TLSPolicyServers.certificateDirectory()
        let chain = try Data(contentsOf: servers.file("client.pem"))
        let noKey = #expect(throws: APIError.self) {
            try TLSPolicy.ClientIdentity.pem(certificateChain: chain, privateKey: Data("not a key".utf8))
        }
        #expect(noKey?.description.contains("private key is not PEM") == true)
        #expect(throws: APIError.self) { try TLSPolicy.ClientIdentity.pkcs12(Data(), password: "") }
    }

    @Test("Only the default policy is the default")
    func isDefault() throws {
        #expect(TLSPolicy().isDefault)
        #expect(!TLSPolicy(minimumVersion: .tls12).isDefault)
        #expect(!TLSPolicy(pins: [try TLSPolicy.PinSet(sha256: [Self.key1, Self.key2])]).isDefault)
    }

    @Test("A client identity describes itself without its key or password")
    func identityDescription() throws {
        let identity = try TLSPolicy.ClientIdentity.pkcs12(Data("bundle".utf8), password: "hunter2")
        #expect(String(describing: TLSPolicy(clientIdentity: identity)).contains("hunter2") == false)
        #expect(identity.description == "ClientIdentity(PKCS#12, 6 bytes)")
    }

    @Test("A pin mismatch says the host and every hash seen")
    func mismatchDescription() {
        let error = APIError.certificatePinMismatch(host: "api.example.com", seen: [Self.key1, Self.key2])
        #expect(error.description.contains("api.example.com"))
        #expect(error.description.contains("sha256/\(Self.key1)") && error.description.contains("sha256/\(Self.key2)"))
    }
}
