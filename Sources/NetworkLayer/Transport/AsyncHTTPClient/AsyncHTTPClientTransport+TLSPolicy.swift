#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL

    extension AsyncHTTPClientTransport {
        /// Creates a transport over an `HTTPClient` of its own that honours `tlsPolicy`, shut down
        /// when the last copy of the transport is gone.
        ///
        /// The client is ``defaultConfiguration()`` with NIOSSL's `TLSConfiguration` for the policy:
        /// its roots as `trustRoots` (``TLSPolicy/TrustRoots/only(_:)``) or `additionalTrustRoots`,
        /// its client identity as `certificateChain` and `privateKey` (PEM or PKCS#12), and its
        /// minimum version. BoringSSL validates every chain as usual (roots, dates, host name); pins are
        /// checked after that, before the connection carries a request, on the certificate BoringSSL
        /// verified and the trusted certificates it leads to, up to its root (see
        /// <doc:SecuringConnections> for which certificates a pin can match here).
        /// - Parameter tlsPolicy: Whom TLS trusts and who the client is.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when NIOSSL cannot read a certificate or the key.
        public init(tlsPolicy: TLSPolicy) throws(APIError) {
            var configuration = Self.defaultConfiguration()
            configuration.tlsConfiguration = try Self.tlsConfiguration(for: tlsPolicy)
            if !tlsPolicy.pins.isEmpty {
                let systemRoots: [CertificateDER] =
                    if case .only = tlsPolicy.trustRoots { [] } else { AsyncHTTPClientSystemRoots.certificates }
                let check = AsyncHTTPClientPinCheck(policy: tlsPolicy, systemRoots: systemRoots)
                configuration.http1_1ConnectionDebugInitializer = { check.verify($0) }
                configuration.http2ConnectionDebugInitializer = { check.verify($0) }
            }
            // NIOSSL's event loops, on every platform: on Apple platforms `HTTPClient.defaultEventLoopGroup`
            // is Network.framework's, whose TLS ignores additional roots, has no NIOSSL handler for the
            // pin check and traps on a client certificate chain.
            let group = MultiThreadedEventLoopGroup.singleton
            let owner = OwnedHTTPClient(HTTPClient(eventLoopGroup: group, configuration: configuration))
            self.init(client: owner.client, inflates: Self.inflatesBodies(for: configuration), owner: owner)
        }

        /// NIOSSL's client configuration for `policy`.
        static func tlsConfiguration(for policy: TLSPolicy) throws(APIError) -> TLSConfiguration {
            var tls = TLSConfiguration.makeClientConfiguration()
            do {
                switch policy.trustRoots {
                case .system: break
                case .systemAnd(let roots): tls.additionalTrustRoots = [.certificates(try certificates(roots))]
                case .only(let roots): tls.trustRoots = .certificates(try certificates(roots))
                }
                switch policy.clientIdentity?.storage {
                case .pem(let chain, let key)?:
                    tls.certificateChain = try certificates(chain).map { .certificate($0) }
                    tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: [UInt8](key), format: .pem))
                case .pkcs12(let data, let password)?:
                    let bundle = try openPKCS12(data, password: password)
                    tls.certificateChain = bundle.certificateChain.map { .certificate($0) }
                    tls.privateKey = .privateKey(bundle.privateKey)
                case nil: break
                }
            } catch let error as APIError {
                throw error
            } catch {
                throw .invalidTLSPolicy("NIOSSL cannot read a certificate or the private key: \(error)")
            }
            switch policy.minimumVersion {
            case .tls12?: tls.minimumTLSVersion = .tlsv12
            case .tls13?: tls.minimumTLSVersion = .tlsv13
            case nil: break
            }
            return tls
        }

        /// The PKCS#12 bundle in `data`, opened with `password`.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` saying whether the password is wrong or the data
        ///   is no bundle (BoringSSL's own text names a source file of the build).
        static func openPKCS12(_ data: Data, password: String) throws(APIError) -> NIOSSLPKCS12Bundle {
            do {
                return try NIOSSLPKCS12Bundle(buffer: [UInt8](data), passphrase: Array(password.utf8))
            } catch {
                if String(describing: error).contains("INCORRECT_PASSWORD") {
                    throw .invalidTLSPolicy("the PKCS#12 bundle does not open with the password given: the password is wrong")
                }
                throw .invalidTLSPolicy(
                    "the PKCS#12 bundle (\(data.count) bytes) cannot be read: it is not PKCS#12 (DER), or it is damaged")
            }
        }

        private static func certificates(_ certificates: TLSPolicy.Certificates) throws -> [NIOSSLCertificate] {
            try certificates.derEncoded.map { try NIOSSLCertificate(bytes: [UInt8]($0), format: .der) }
        }
    }

    extension HTTPTransport where Self == AsyncHTTPClientTransport {
        /// An ``AsyncHTTPClientTransport`` honouring `tlsPolicy` over a client of its own:
        /// `NetworkClient(transport: try .asyncHTTPClient(tlsPolicy: policy))`.
        /// - Parameter tlsPolicy: Whom TLS trusts and who the client is.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when NIOSSL cannot read a certificate or the key.
        public static func asyncHTTPClient(tlsPolicy: TLSPolicy) throws(APIError) -> Self {
            try AsyncHTTPClientTransport(tlsPolicy: tlsPolicy)
        }
    }

    /// An `HTTPClient` a transport made for itself, shut down when the last transport holding it, and
    /// the last exchange sent through it, are gone (AsyncHTTPClient traps, in debug builds, on a client
    /// released running).
    final class OwnedHTTPClient: Sendable {
        let client: HTTPClient

        init(_ client: HTTPClient) { self.client = client }

        deinit {
            client.shutdown { _ in }
        }
    }

    /// The pins of a ``TLSPolicy`` over AsyncHTTPClient: checked on each new connection, after
    /// BoringSSL has validated its chain and before the connection carries a request.
    ///
    /// AsyncHTTPClient builds its NIOSSL handlers itself and takes no verification callback, so the
    /// check runs in its connection initialiser (`http1_1ConnectionDebugInitializer`), on the
    /// certificate the handshake verified (NIOSSL hands over the leaf alone) and the trusted
    /// certificates it leads to (``TLSPolicy/chain(from:systemRoots:)``). A failed check fails the
    /// connection, which fails the requests waiting for it, and then closes it.
    struct AsyncHTTPClientPinCheck: Sendable {
        /// A connection whose chain has none of the pinned keys; `seen` as in ``APIError/certificatePinMismatch(host:seen:)``.
        struct Mismatch: Error {
            let seen: [String]
        }

        let policy: TLSPolicy
        /// The system's trust store, when the policy's roots include it.
        let systemRoots: [CertificateDER]

        /// Succeeds when the connection's chain satisfies the pins that apply to it, or the connection
        /// is not TLS (an `http` URL); fails with ``Mismatch``, then closes the connection, otherwise.
        func verify(_ channel: any Channel) -> EventLoopFuture<Void> {
            channel.eventLoop.flatSubmit { [policy, systemRoots] in
                // A plain connection has no TLS handler: pins are about TLS, and `http` is not.
                guard let handler = try? channel.pipeline.syncOperations.handler(type: NIOSSLHandler.self) else {
                    return channel.eventLoop.makeSucceededVoidFuture()
                }
                let leaf = (try? handler.peerCertificate?.toDERBytes()).flatMap { $0.flatMap(CertificateDER.init) }
                guard let leaf else { return Self.refuse(channel, seen: []) }
                let chain = policy.chain(from: leaf, systemRoots: systemRoots)
                if let seen = policy.mismatch(of: chain, against: policy.pinSets(coveredBy: leaf)) {
                    return Self.refuse(channel, seen: seen)
                }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
        }

        /// A failed future of ``Mismatch``, the connection closed once AsyncHTTPClient has dropped it
        /// (which it does on this failure, before the close is seen).
        private static func refuse(_ channel: any Channel, seen: [String]) -> EventLoopFuture<Void> {
            channel.eventLoop.execute { channel.close(promise: nil) }
            return channel.eventLoop.makeFailedFuture(Mismatch(seen: seen))
        }
    }
#endif
