import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

/// Which pin sets a certificate gets over AsyncHTTPClient, whose check sees the certificate but not the host.
@Suite("Pin sets by certificate")
struct PinSetSelectionTests {
    static let key1 = Data(repeating: 1, count: 32).base64EncodedString()
    static let key2 = Data(repeating: 2, count: 32).base64EncodedString()

    /// A self-signed certificate made by openssl with `subject` and, when given, `names` as its subject alternative names.
    static func certificate(subject: String, names: String?) async throws -> CertificateDER {
        try await onOwnThread { try makeCertificate(subject: subject, names: names) }
    }

    /// ``certificate(subject:names:)``, blocking while openssl runs.
    private static func makeCertificate(subject: String, names: String?) throws -> CertificateDER {
        let directory = try TemporaryDirectory()
        let extensions = names.map { "-addext 'subjectAltName=\($0)'" } ?? ""
        _ = try TLSPolicyServers.shell(
            "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem -out cert.pem "
                + "-days 1 -subj '/CN=\(subject)' \(extensions) 2>/dev/null", in: directory.url)
        let pem = try Data(contentsOf: directory.file("cert.pem"))
        guard let certificate = try TLSPolicy.Certificates(pem).parsed.first else { throw CocoaError(.fileReadCorruptFile) }
        return certificate
    }

    @Test("A certificate for the pinned host, by name or with a trailing dot, gets its pins; another host's does not")
    func byName() async throws {
        let policy = TLSPolicy(pins: [try TLSPolicy.PinSet(sha256: [Self.key1, Self.key2], hosts: ["API.example.com."])])
        #expect(policy.pinSets(coveredBy: try await Self.certificate(subject: "x", names: "DNS:api.example.com")).count == 1)
        #expect(policy.pinSets(coveredBy: try await Self.certificate(subject: "x", names: "DNS:*.example.com")).count == 1)
        #expect(policy.pinSets(coveredBy: try await Self.certificate(subject: "x", names: "DNS:other.test")).isEmpty)
        #expect(policy.pinSets(for: "api.example.com").count == 1)
    }

    @Test("A certificate whose names the check cannot read as the TLS library does gets every pin set")
    func failsClosed() async throws {
        let policy = TLSPolicy(pins: [try TLSPolicy.PinSet(sha256: [Self.key1, Self.key2], hosts: ["api.example.com"])])
        // No subject alternative name: the TLS library falls back to the common name.
        #expect(policy.pinSets(coveredBy: try await Self.certificate(subject: "api.example.com", names: nil)).count == 1)
        // A partial wildcard, which the TLS library may accept.
        #expect(policy.pinSets(coveredBy: try await Self.certificate(subject: "x", names: "DNS:ap*.example.com")).count == 1)
    }

    @Test("An IPv6 host's pins apply with or without brackets")
    func ipv6() throws {
        let policy = TLSPolicy(pins: [try TLSPolicy.PinSet(sha256: [Self.key1, Self.key2], hosts: ["[::1]"])])
        #expect(policy.pinSets(for: "::1").count == 1)
        #expect(policy.pinSets(for: "[::1]").count == 1)
    }
}
