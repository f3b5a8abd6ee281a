#if AsyncHTTPClient
    import Foundation

    /// The system's trust store as NIOSSL reads it, for the pin check: the certificates a chain
    /// validated under ``TLSPolicy/TrustRoots/system`` or ``TLSPolicy/TrustRoots/systemAnd(_:)`` may
    /// lead to.
    ///
    /// On Linux NIOSSL hands BoringSSL the first bundle of ``bundles`` that exists and the directory
    /// ``directory``; they are read here once, the first time a transport with pins needs them. On other
    /// platforms NIOSSL asks the platform's trust evaluation, and no root is known here.
    enum AsyncHTTPClientSystemRoots {
        /// The bundle files NIOSSL looks for, in its order (Debian, Ubuntu, Arch, Alpine; Fedora).
        static let bundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]
        /// The directory of certificates NIOSSL adds (OpenSSL's hashed names).
        static let directory = "/etc/ssl/certs"

        /// The system's root certificates, read once; none where they cannot be read.
        static let certificates: [CertificateDER] = {
            #if os(Linux)
                read(bundles: bundles, directory: directory)
            #else
                []
            #endif
        }()

        /// The certificates of the first of `bundles` that exists and of the `directory`'s files with
        /// OpenSSL's hashed names (`5ad8a5d6.0`), each once.
        static func read(bundles: [String], directory: String) -> [CertificateDER] {
            var files: [String] = bundles.first(where: FileManager.default.fileExists(atPath:)).map { [$0] } ?? []
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            files += names.filter(isHashedName).sorted().map { "\(directory)/\($0)" }
            var seen = Set<[UInt8]>()
            var certificates: [CertificateDER] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                for block in PEM.blocks(in: [UInt8](data), label: "CERTIFICATE") {
                    guard let block, let certificate = CertificateDER(block), seen.insert(block).inserted else { continue }
                    certificates.append(certificate)
                }
            }
            return certificates
        }

        /// Whether `name` is OpenSSL's hashed name of a certificate: eight hexadecimal digits, a dot, a number.
        private static func isHashedName(_ name: String) -> Bool {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0].count == 8 && parts[0].allSatisfy(\.isHexDigit)
                && !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber)
        }
    }
#endif
