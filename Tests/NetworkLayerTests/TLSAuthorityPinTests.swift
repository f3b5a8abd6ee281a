import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

/// A pin of an authority matches the chain as validated, up to its trusted root, though the server
/// never sends the root: under `.only` and `.systemAnd` over real servers, under `.system` with the
/// system's trust store as the check reads it.
@Suite("Authority pins")
struct TLSAuthorityPinTests {
    static let unrelated = TLSPolicyTransportTests.unrelated[0]

    /// A policy of `roots` pinning `hash` (and an unrelated backup).
    static func policy(_ roots: TLSPolicy.TrustRoots, pinning hash: String) throws -> TLSPolicy {
        TLSPolicy(trustRoots: roots, pins: [try TLSPolicy.PinSet(sha256: [hash, unrelated])])
    }

    /// The parsed certificate in the file `name` of `directory`.
    static func certificate(_ name: String, in directory: TemporaryDirectory) throws -> CertificateDER {
        try #require(try TLSPolicy.Certificates(contentsOf: directory.file(name)).parsed.first)
    }

    @Test("Under the system's roots the chain goes on to the system root that issued the server's certificate, and no further")
    func systemRoots() async throws {
        let directory = try await TLSPolicyServers.certificateDirectory()
        let authority = try Self.certificate("ca.pem", in: directory)
        let leaf = try Self.certificate("server.pem", in: directory)
        let chainedLeaf = try Self.certificate("chained-leaf.pem", in: directory)
        let intermediate = try Self.certificate("intermediate.pem", in: directory)
        let system = TLSPolicy()
        #expect(system.chain(from: leaf, systemRoots: [authority]) == [leaf, authority])
        #expect(system.chain(from: leaf, systemRoots: []) == [leaf])
        // An intermediate only the server sends is not known: the chain ends at the certificate it issued.
        #expect(system.chain(from: chainedLeaf, systemRoots: [authority]) == [chainedLeaf])
        #expect(system.chain(from: chainedLeaf, systemRoots: [authority, intermediate]) == [chainedLeaf, intermediate, authority])
        // Under `.only` the system's roots do not count.
        let only = TLSPolicy(trustRoots: .only(try TLSPolicy.Certificates(contentsOf: directory.file("rsa.pem"))))
        #expect(only.chain(from: leaf, systemRoots: [authority]) == [leaf])
        let pinned = try Self.policy(.system, pinning: authority.publicKeyHash)
        #expect(pinned.mismatch(of: pinned.chain(from: leaf, systemRoots: [authority]), against: pinned.pins) == nil)
    }

    @Test("Under only its own roots a pin set naming every root holds whatever intermediates the chain has")
    func everyRootPinned() async throws {
        let directory = try await TLSPolicyServers.certificateDirectory()
        let chainedLeaf = try Self.certificate("chained-leaf.pem", in: directory)
        let roots = try TLSPolicy.Certificates(contentsOf: directory.file("ca.pem"))
        let policy = try Self.policy(.only(roots), pinning: roots.publicKeyHashes[0])
        #expect(policy.mismatch(of: [chainedLeaf], against: policy.pins) == nil)
        let systemAnd = try Self.policy(.systemAnd(roots), pinning: roots.publicKeyHashes[0])
        #expect(systemAnd.mismatch(of: [chainedLeaf], against: systemAnd.pins) == [chainedLeaf.publicKeyHash])
    }

    #if AsyncHTTPClient
        @Test("The system's roots are read as NIOSSL finds them: the bundle, then the hashed files of the directory, each once")
        func systemStore() async throws {
            let directory = try TemporaryDirectory()
            let store = directory.file("certs")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            let servers = try await TLSPolicyServers.certificateDirectory()
            let authority = try Data(contentsOf: servers.file("ca.pem"))
            let intermediate = try Data(contentsOf: servers.file("intermediate.pem"))
            try (authority + intermediate).write(to: directory.file("bundle.crt"))
            try authority.write(to: store.appendingPathComponent("0123abcd.0"))
            try intermediate.write(to: store.appendingPathComponent("89abcdef.1"))
            try Data(contentsOf: servers.file("rsa.pem")).write(to: store.appendingPathComponent("rsa.pem"))
            let read = AsyncHTTPClientSystemRoots.read(
                bundles: [directory.file("missing.crt").path, directory.file("bundle.crt").path], directory: store.path)
            let expected = [try Self.certificate("ca.pem", in: servers), try Self.certificate("intermediate.pem", in: servers)]
            #expect(read == expected)
            #if os(Linux)
                if FileManager.default.fileExists(atPath: AsyncHTTPClientSystemRoots.bundles[0]) {
                    #expect(AsyncHTTPClientSystemRoots.certificates.count > 10)
                }
            #endif
        }

        @Test(
            "Over AsyncHTTPClient a pin of the authority passes under its roots added to the system's or alone, though the server does not send it",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func authorityPin(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let authority = try servers.opensslHash("ca.pem")
            for trust in [TLSPolicy.TrustRoots.systemAnd(roots), .only(roots)] {
                let result = await TLSPolicyTransportTests.get(
                    servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: Self.policy(trust, pinning: authority)))
                #expect((try? result.get()) == "ok", "\(trust): \(result)")
            }
        }

        @Test(
            "Over AsyncHTTPClient a chain through an intermediate the server sends satisfies a pin of the authority or the intermediate when both are trusted, and of the only root",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func intermediatePin(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let authority = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let both = try TLSPolicy.Certificates(
                Data(contentsOf: servers.file("ca.pem")) + Data(contentsOf: servers.file("intermediate.pem")))
            let cases: [(TLSPolicy.TrustRoots, String)] = [
                (.systemAnd(both), try servers.opensslHash("intermediate.pem")),
                (.systemAnd(both), try servers.opensslHash("ca.pem")),
                (.only(both), try servers.opensslHash("intermediate.pem")),
                (.only(authority), try servers.opensslHash("ca.pem")),
            ]
            for (trust, pin) in cases {
                let result = await TLSPolicyTransportTests.get(
                    servers.baseURL(.chained), over: try .asyncHTTPClient(tlsPolicy: Self.policy(trust, pinning: pin)))
                #expect((try? result.get()) == "ok", "\(trust), \(pin): \(result)")
            }
            // The intermediate, which only the server sends, is not known beside the system's roots: the
            // chain is the server's certificate alone, as the error says.
            let unknown = await TLSPolicyTransportTests.get(
                servers.baseURL(.chained),
                over: try .asyncHTTPClient(tlsPolicy: Self.policy(.systemAnd(authority), pinning: try servers.opensslHash("ca.pem"))))
            #expect(unknown == .failure(.certificatePinMismatch(host: "127.0.0.1", seen: [try servers.opensslHash("chained-leaf.pem")])))
        }
    #endif
}
