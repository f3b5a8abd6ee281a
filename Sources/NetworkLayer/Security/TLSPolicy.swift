import Foundation

/// Whom TLS trusts, and who the client is: the roots a server's certificate must chain to, the
/// public keys it must show, the certificate the client presents, and the oldest TLS version spoken.
///
/// The default (``default``, `TLSPolicy()`) is the platform's: the system's trust roots, no pins, no
/// client certificate, the transport's own minimum version. Anything else is given to a transport
/// that can honour it, which refuses it when it is created if it cannot, with
/// ``APIError/unsupportedTLSPolicy(_:)`` (`URLSessionTransport` on Linux honours only the default):
///
/// ```swift
/// let policy = try TLSPolicy(
///     trustRoots: .only(TLSPolicy.Certificates(contentsOf: caFile)),
///     pins: [TLSPolicy.PinSet(sha256: [currentKey, backupKey])])
/// let client = NetworkClient(transport: try AsyncHTTPClientTransport(tlsPolicy: policy))
/// ```
///
/// Pins never replace validation: a chain is first validated against the trust roots (dates, host
/// name, signatures), and only then must a certificate of it have a pinned public key; a mismatch
/// fails with ``APIError/certificatePinMismatch(host:seen:)``. See <doc:SecuringConnections>.
public struct TLSPolicy: Sendable, Hashable {
    /// The certificates a server's chain must lead to; ``TrustRoots/system`` by default.
    public var trustRoots: TrustRoots
    /// The pin sets a validated chain must satisfy, each for its hosts; none by default.
    public var pins: [PinSet]
    /// The certificate and key presented to a server that asks for one (mutual TLS); `nil` (none) by default.
    public var clientIdentity: ClientIdentity?
    /// The oldest TLS version spoken; `nil` by default, the transport's own (TLS 1.2 on Apple platforms, 1.0 in NIOSSL).
    public var minimumVersion: Version?

    /// The platform's defaults: system roots, no pins, no client certificate, the transport's minimum version.
    public static let `default` = TLSPolicy()

    /// Creates a policy; every argument defaults to the platform's behaviour.
    /// - Parameters:
    ///   - trustRoots: The certificates a chain must lead to; ``TrustRoots/system`` by default.
    ///   - pins: The pin sets a validated chain must satisfy; none by default.
    ///   - clientIdentity: The certificate presented for mutual TLS; none by default.
    ///   - minimumVersion: The oldest TLS version spoken; `nil` (the transport's) by default.
    public init(
        trustRoots: TrustRoots = .system, pins: [PinSet] = [], clientIdentity: ClientIdentity? = nil, minimumVersion: Version? = nil
    ) {
        self.trustRoots = trustRoots
        self.pins = pins
        self.clientIdentity = clientIdentity
        self.minimumVersion = minimumVersion
    }

    /// Whether this is ``default``, which every transport honours.
    var isDefault: Bool { self == .default }

    /// Where a server's chain must lead.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store; the default.
        case system
        /// The system's trust store and these certificates (a private CA beside the public ones).
        case systemAnd(Certificates)
        /// These certificates alone: nothing the system trusts counts (the strongest way to pin a CA).
        case only(Certificates)
    }

    /// A TLS protocol version, for ``minimumVersion``.
    public enum Version: Sendable, Hashable, Comparable {
        /// TLS 1.2 (RFC 5246).
        case tls12
        /// TLS 1.3 (RFC 8446).
        case tls13
    }

    /// One or more X.509 certificates, kept in DER, read from PEM or DER.
    public struct Certificates: Sendable, Hashable {
        /// The certificates, each DER-encoded, in the order given.
        let derEncoded: [Data]
        /// The parsed form of each, for pins and issuer links.
        let parsed: [CertificateDER]

        /// The certificates in `data`: one or more PEM `CERTIFICATE` blocks, or one DER certificate.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when `data` holds no readable certificate.
        public init(_ data: Data) throws(APIError) {
            let bytes = [UInt8](data)
            if let certificate = CertificateDER(bytes) {
                parsed = [certificate]
            } else {
                let blocks = PEM.blocks(in: bytes, label: "CERTIFICATE")
                guard !blocks.isEmpty else {
                    throw .invalidTLSPolicy("no certificate found: expected PEM (-----BEGIN CERTIFICATE-----) or DER")
                }
                var certificates: [CertificateDER] = []
                for (index, block) in blocks.enumerated() {
                    guard let der = block, let certificate = CertificateDER(der) else {
                        throw .invalidTLSPolicy("PEM certificate \(index + 1) of \(blocks.count) is not a readable X.509 certificate")
                    }
                    certificates.append(certificate)
                }
                parsed = certificates
            }
            derEncoded = parsed.map { Data($0.bytes) }
        }

        /// The certificates in the file at `url`, PEM or DER.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when the file cannot be read or holds no certificate.
        public init(contentsOf url: URL) throws(APIError) {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw .invalidTLSPolicy("cannot read the certificate file \(url.path): \(error.localizedDescription)")
            }
            do {
                try self.init(data)
            } catch {
                throw .invalidTLSPolicy("\(url.path): \(Self.reason(error))")
            }
        }

        /// The RFC 7469 public-key hash of each certificate, in order: what a ``PinSet`` lists.
        public var publicKeyHashes: [String] { parsed.map(\.publicKeyHash) }

        private static func reason(_ error: APIError) -> String {
            if case .invalidTLSPolicy(let reason) = error { reason } else { error.description }
        }
    }
}
