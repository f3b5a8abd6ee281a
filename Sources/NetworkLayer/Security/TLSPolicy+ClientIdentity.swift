import Foundation

extension TLSPolicy {
    /// The certificate and private key a client presents to a server that asks for one (mutual TLS).
    public struct ClientIdentity: Sendable, Hashable {
        /// How the identity is kept.
        enum Storage: Sendable, Hashable {
            /// A certificate chain (the client's first) and its private key, PEM.
            case pem(certificates: Certificates, privateKey: Data)
            /// A PKCS#12 bundle and its password.
            case pkcs12(Data, password: String)
        }

        let storage: Storage

        /// An identity from PEM: the client's certificate (then any intermediates) and its private key.
        ///
        /// AsyncHTTPClient reads it; on Apple platforms, where a `SecIdentity` comes from PKCS#12,
        /// use ``pkcs12(_:password:)``.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when the chain holds no certificate or the key no
        ///   `PRIVATE KEY` block.
        public static func pem(certificateChain: Data, privateKey: Data) throws(APIError) -> ClientIdentity {
            let certificates = try Certificates(certificateChain)
            guard PEM.containsBlock(in: [UInt8](privateKey), labelEndingWith: "PRIVATE KEY") else {
                throw .invalidTLSPolicy("the client's private key is not PEM (-----BEGIN PRIVATE KEY----- or a like block)")
            }
            return ClientIdentity(storage: .pem(certificates: certificates, privateKey: privateKey))
        }

        /// An identity from PEM files: the certificate chain's and the private key's.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when a file cannot be read or is not PEM.
        public static func pem(certificateChainFile: URL, privateKeyFile: URL) throws(APIError) -> ClientIdentity {
            try pem(certificateChain: read(certificateChainFile), privateKey: read(privateKeyFile))
        }

        /// An identity from a PKCS#12 (`.p12`) bundle holding the certificate and private key.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` when `data` is empty.
        public static func pkcs12(_ data: Data, password: String) throws(APIError) -> ClientIdentity {
            guard !data.isEmpty else { throw .invalidTLSPolicy("the PKCS#12 bundle is empty") }
            return ClientIdentity(storage: .pkcs12(data, password: password))
        }

        private static func read(_ url: URL) throws(APIError) -> Data {
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .invalidTLSPolicy("cannot read \(url.path): \(error.localizedDescription)")
            }
        }
    }
}

extension TLSPolicy.ClientIdentity: CustomStringConvertible {
    /// What the identity is, without its key or password: `ClientIdentity(PEM, 2 certificates)`.
    public var description: String {
        switch storage {
        case .pem(let certificates, _): "ClientIdentity(PEM, \(certificates.derEncoded.count) certificates)"
        case .pkcs12(let data, _): "ClientIdentity(PKCS#12, \(data.count) bytes)"
        }
    }
}
