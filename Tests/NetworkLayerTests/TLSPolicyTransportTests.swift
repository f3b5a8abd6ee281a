import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``TLSPolicy`` is honoured by the transport that can, and refused when it is made by the one that cannot.
@Suite("TLS policy over the transports")
struct TLSPolicyTransportTests {
    static let unrelated = [Data(repeating: 7, count: 32).base64EncodedString(), Data(repeating: 8, count: 32).base64EncodedString()]

    /// The `URLError` code of `result` when it failed with ``APIError/requestFailed(_:)``; `nil` otherwise.
    static func code(of result: Result<String, APIError>) -> URLError.Code? {
        if case .failure(.requestFailed(let error)) = result { error.code } else { nil }
    }

    /// The outcome of a `GET /` to `base` over `transport`.
    static func get(_ base: String, over transport: any HTTPTransport) async -> Result<String, APIError> {
        await NetworkClient(transport: transport).fetch(TestEndpoint(base: base, path: "/", timeout: 20), as: String.self)
    }

    #if canImport(FoundationNetworking)
        @Test("On Linux, URLSessionTransport refuses every policy but the default when it is made, naming AsyncHTTPClientTransport")
        func linuxRefuses() async throws {
            let servers = try await TLSPolicyServers.certificateDirectory()
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let identity = try TLSPolicy.ClientIdentity.pem(
                certificateChainFile: servers.file("client.pem"), privateKeyFile: servers.file("client.key"))
            let policies: [(TLSPolicy, String)] = [
                (TLSPolicy(trustRoots: .systemAnd(roots)), "additional trust roots"),
                (TLSPolicy(trustRoots: .only(roots)), "trust roots of its own"),
                (TLSPolicy(pins: [try TLSPolicy.PinSet(sha256: Self.unrelated)]), "public-key pins"),
                (TLSPolicy(clientIdentity: identity), "a client certificate"),
                (TLSPolicy(minimumVersion: .tls13), "a minimum TLS version"),
            ]
            for (policy, part) in policies {
                let error = #expect(throws: APIError.self) { try URLSessionTransport(tlsPolicy: policy) }
                guard case .unsupportedTLSPolicy(let reason) = error else {
                    Issue.record("expected unsupportedTLSPolicy, got \(String(describing: error))")
                    continue
                }
                #expect(reason.contains(part), "\(reason)")
                #expect(reason.contains("AsyncHTTPClientTransport (package trait AsyncHTTPClient)"), "\(reason)")
            }
        }

        @Test("On Linux, URLSessionTransport takes the default policy, which trusts the system's roots alone")
        func linuxDefault() async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let transport = try URLSessionTransport(tlsPolicy: .default)
            let result = await Self.get(servers.baseURL(.plain), over: transport)
            #expect(Self.code(of: result) == .serverCertificateHasUnknownRoot, "\(result)")
        }
    #endif

    #if AsyncHTTPClient
        @Test(
            "Over AsyncHTTPClient a private authority's server is reached with it as an additional or the only root, and refused without it",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func privateAuthority(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            for roots in [TLSPolicy.TrustRoots.systemAnd(roots), .only(roots)] {
                let result = await Self.get(servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: roots)))
                #expect((try? result.get()) == "ok", "\(roots): \(result)")
            }
            let refused = await Self.get(servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: .default))
            #expect(Self.code(of: refused) == .serverCertificateHasUnknownRoot, "\(refused)")
        }

        @Test(
            "Over AsyncHTTPClient a pin of the server's key or of its only root passes; pins matching nothing fail with certificatePinMismatch",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func pins(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let leaf = try servers.opensslHash("server.pem")
            let authority = try servers.opensslHash("ca.pem")
            for pinned in [leaf, authority] {
                let policy = TLSPolicy(trustRoots: .only(roots), pins: [try TLSPolicy.PinSet(sha256: [pinned, Self.unrelated[0]])])
                let result = await Self.get(servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: policy))
                #expect((try? result.get()) == "ok", "pin \(pinned == leaf ? "leaf" : "authority"): \(result)")
            }
            let policy = TLSPolicy(trustRoots: .only(roots), pins: [try TLSPolicy.PinSet(sha256: Self.unrelated)])
            let result = await Self.get(servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: policy))
            #expect(result == .failure(.certificatePinMismatch(host: "127.0.0.1", seen: [leaf, authority])), "\(result)")
        }

        @Test(
            "Over AsyncHTTPClient pins govern TLS connections only: a plain http URL is served",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func plainHTTP(transport: TransportKind) async throws {
            let server = try ScriptedServer { connection in
                connection.writeHead(headers: ["Content-Length": "2"])
                connection.write(Data("ok".utf8))
            }
            let policy = TLSPolicy(pins: [try TLSPolicy.PinSet(sha256: Self.unrelated)])
            let result = await Self.get(server.baseURL, over: try .asyncHTTPClient(tlsPolicy: policy))
            #expect((try? result.get()) == "ok", "\(result)")
        }

        @Test(
            "Over AsyncHTTPClient a pin set applies to every connection whose certificate names one of its hosts: one for localhost holds at 127.0.0.1 when the certificate names both",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func pinsByHost(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let elsewhere = TLSPolicy(
                trustRoots: .only(roots), pins: [try TLSPolicy.PinSet(sha256: Self.unrelated, hosts: ["api.example.com"])])
            let served = await Self.get(servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: elsewhere))
            #expect((try? served.get()) == "ok", "\(served)")
            let here = TLSPolicy(trustRoots: .only(roots), pins: [try TLSPolicy.PinSet(sha256: Self.unrelated, hosts: ["LOCALHOST"])])
            let refused = await Self.get(servers.baseURL(.plain), over: try .asyncHTTPClient(tlsPolicy: here))
            guard case .failure(.certificatePinMismatch(let host, _)) = refused else {
                Issue.record("expected certificatePinMismatch, got \(refused)")
                return
            }
            #expect(host == "127.0.0.1")
        }

        @Test(
            "Over AsyncHTTPClient a server requiring a client certificate accepts the client's identity (PEM or PKCS#12), and refuses a client without one or with a stranger's",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func clientCertificate(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let identities = [
                try TLSPolicy.ClientIdentity.pem(
                    certificateChainFile: servers.file("client.pem"), privateKeyFile: servers.file("client.key")),
                try TLSPolicy.ClientIdentity.pkcs12(try Data(contentsOf: servers.file("client.p12")), password: "secret"),
            ]
            for identity in identities {
                let policy = TLSPolicy(trustRoots: .only(roots), clientIdentity: identity)
                let result = await Self.get(servers.baseURL(.mutual), over: try .asyncHTTPClient(tlsPolicy: policy))
                #expect((try? result.get()) == "ok", "\(result)")
            }
            let refused = await Self.get(
                servers.baseURL(.mutual), over: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: .only(roots))))
            #expect(Self.code(of: refused) == .clientCertificateRequired, "\(refused)")
            // A certificate of an authority the server does not know: refused by the server's alert.
            let stranger = try TLSPolicy.ClientIdentity.pem(
                certificateChainFile: servers.file("rsa.pem"), privateKeyFile: servers.file("client.key"))
            let rejected = await Self.get(
                servers.baseURL(.mutual),
                over: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: .only(roots), clientIdentity: stranger)))
            #expect(Self.code(of: rejected) == .clientCertificateRejected, "\(rejected)")
        }

        @Test("Over AsyncHTTPClient a PKCS#12 bundle that does not open is refused when the transport is made, saying why")
        func pkcs12Refusals() async throws {
            let servers = try await TLSPolicyServers.certificateDirectory()
            let bundle = try Data(contentsOf: servers.file("client.p12"))
            let cases = [
                (bundle, "the PKCS#12 bundle does not open with the password given: the password is wrong"),
                (Data("not a bundle".utf8), "the PKCS#12 bundle (12 bytes) cannot be read: it is not PKCS#12 (DER), or it is damaged"),
            ]
            for (data, reason) in cases {
                let identity = try TLSPolicy.ClientIdentity.pkcs12(data, password: "wrong")
                #expect(throws: APIError.invalidTLSPolicy(reason)) {
                    try AsyncHTTPClientTransport(tlsPolicy: TLSPolicy(clientIdentity: identity))
                }
            }
        }

        @Test(
            "Over AsyncHTTPClient a minimum of TLS 1.3 refuses a server of TLS 1.2 at most, which a minimum of 1.2 reaches",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func minimumVersion(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let roots = try TLSPolicy.Certificates(contentsOf: servers.file("ca.pem"))
            let reached = await Self.get(
                servers.baseURL(.tls12), over: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: .only(roots), minimumVersion: .tls12)))
            #expect((try? reached.get()) == "ok", "\(reached)")
            let refused = await Self.get(
                servers.baseURL(.tls12), over: try .asyncHTTPClient(tlsPolicy: TLSPolicy(trustRoots: .only(roots), minimumVersion: .tls13)))
            #expect(Self.code(of: refused) == .secureConnectionFailed, "\(refused)")
        }
    #endif
}
