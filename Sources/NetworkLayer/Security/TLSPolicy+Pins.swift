import Foundation

extension TLSPolicy {
    /// Public keys a validated chain must show, for some hosts or all: at least one certificate of the
    /// chain (the server's own, an intermediate or the root) must have one of these SPKI SHA-256 hashes.
    ///
    /// At least two hashes are required, so that a backup exists when a key is lost or rotated: pin
    /// the key in use and the next one (or a CA's), as RFC 7469 asks.
    public struct PinSet: Sendable, Hashable {
        /// The pinned hashes: base64 of the SHA-256 of a certificate's `SubjectPublicKeyInfo` (RFC 7469).
        let hashes: [String]
        /// The hosts the set applies to, lowercased, without a trailing dot or an IPv6 address's brackets;
        /// `nil`, every host.
        let hosts: [String]?

        /// A pin set of `hashes`, for `hosts` (every host by default).
        ///
        /// Over `AsyncHTTPClientTransport` a set with hosts applies to every connection whose validated
        /// certificate names one of them (so a set for `localhost` holds at `127.0.0.1` too when the
        /// certificate names both); over `URLSessionTransport` on Apple platforms, to a request for one of
        /// them. See <doc:SecuringConnections>.
        ///
        /// A hash is what `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der
        /// | openssl dgst -sha256 -binary | base64` prints.
        /// - Parameters:
        ///   - hashes: Two or more base64 SHA-256 hashes of public keys.
        ///   - hosts: The host names (or IP addresses, IPv6 with or without brackets) the pins apply to;
        ///     `nil` (every host) by default.
        /// - Throws: ``APIError/invalidTLSPolicy(_:)`` with fewer than two distinct hashes, a hash that
        ///   is not base64 of 32 bytes, or an empty host list.
        public init(sha256 hashes: [String], hosts: [String]? = nil) throws(APIError) {
            for hash in hashes where Data(base64Encoded: hash)?.count != 32 {
                throw .invalidTLSPolicy("the pin \"\(hash)\" is not a base64 SHA-256 hash (44 characters, 32 bytes)")
            }
            guard Set(hashes).count >= 2 else {
                throw .invalidTLSPolicy(
                    "a pin set needs at least two different hashes, the key in use and a backup, got \(Set(hashes).count)")
            }
            if let hosts, hosts.isEmpty || hosts.contains(where: \.isEmpty) {
                throw .invalidTLSPolicy("a pin set's hosts must be nil (every host) or non-empty names")
            }
            self.hashes = hashes
            self.hosts = hosts?.map(TLSPolicy.normalizedHost)
        }
    }

    /// `host` as pins compare it: lowercased, without a trailing dot or an IPv6 address's brackets.
    static func normalizedHost(_ host: String) -> String {
        var host = Substring(host.lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }

    /// The pin sets that apply to a connection to `host`: those for every host and those naming it.
    func pinSets(for host: String) -> [PinSet] {
        let host = Self.normalizedHost(host)
        return pins.filter { $0.hosts == nil || $0.hosts?.contains(host) == true }
    }

    /// The pin sets that apply to a connection whose host is not known but whose validated server
    /// certificate is `leaf`: those for every host and those naming a host the certificate is valid
    /// for. A certificate valid for a pinned host must satisfy its pins, whichever host it was asked for.
    ///
    /// It fails closed: a certificate whose names this check cannot read as the TLS library does (no
    /// subject alternative name, when the library falls back to the common name, or a wildcard other
    /// than one leading `*.` label) gets every pin set.
    func pinSets(coveredBy leaf: CertificateDER) -> [PinSet] {
        let readable =
            !(leaf.dnsNames.isEmpty && leaf.ipAddresses.isEmpty)
            && leaf.dnsNames.allSatisfy { !$0.dropFirst($0.hasPrefix("*.") ? 2 : 0).contains("*") }
        guard readable else { return pins }
        return pins.filter { set in set.hosts.map { $0.contains(where: leaf.isValid(for:)) } ?? true }
    }

    /// The hashes of `chain` when it fails a set of `sets` (no certificate of it has one of the set's
    /// hashes); `nil` when it satisfies every one.
    ///
    /// Under ``TrustRoots/only(_:)`` a set that pins every one of the roots is satisfied by any chain:
    /// the TLS library ended it at one of them, whatever intermediates came between.
    func mismatch(of chain: [CertificateDER], against sets: [PinSet]) -> [String]? {
        let seen = chain.map(\.publicKeyHash)
        let anchors: [String]? = if case .only(let roots) = trustRoots { roots.publicKeyHashes } else { nil }
        for set in sets where !set.hashes.contains(where: seen.contains) {
            if let anchors, !anchors.isEmpty, anchors.allSatisfy(set.hashes.contains) { continue }
            return seen
        }
        return nil
    }

    /// The validated chain as far as it can be known from `leaf`, the certificate the TLS library
    /// verified: the leaf, then the trusted certificates it leads to by issuer name and key
    /// identifier, up to a self-issued root. The trusted certificates are the policy's roots and,
    /// unless it trusts ``TrustRoots/only(_:)`` its own, `systemRoots` (the system's trust store).
    ///
    /// Only trusted certificates are links, since none is verified here: an intermediate the server
    /// sent, which no trust store holds, ends the chain at the certificate it issued. Two trusted
    /// issuers of one name with different keys end it too: which one the TLS library took is not known.
    func chain(from leaf: CertificateDER, systemRoots: [CertificateDER]) -> [CertificateDER] {
        let trusted: [CertificateDER] =
            switch trustRoots {
            case .system: systemRoots
            case .systemAnd(let roots): roots.parsed + systemRoots
            case .only(let roots): roots.parsed
            }
        var chain = [leaf]
        var current = leaf
        while current.issuer != current.subject, chain.count < 8 {
            let issuers = trusted.filter(current.mayBeIssued(by:))
            guard let first = issuers.first,
                issuers.allSatisfy({ $0.subjectPublicKeyInfo == first.subjectPublicKeyInfo }),
                !chain.contains(where: { $0.subjectPublicKeyInfo == first.subjectPublicKeyInfo })
            else { break }
            // A key certified twice (a root and its cross-signed copy): the root ends the chain.
            let issuer = issuers.first { $0.issuer == $0.subject } ?? first
            chain.append(issuer)
            current = issuer
        }
        return chain
    }
}

extension CertificateDER {
    /// Whether the certificate names `host` among its subject alternative names: a DNS name (one
    /// leading `*.` label matching one label), or an IPv4 address. An IPv6 address counts as named by
    /// any certificate with an IPv6 address, so that its pins apply rather than not.
    func isValid(for host: String) -> Bool {
        let host = TLSPolicy.normalizedHost(host)
        if let address = Self.ipv4(host) { return ipAddresses.contains(address) }
        if host.contains(":") { return ipAddresses.contains { $0.count == 16 } }
        return dnsNames.contains { name in
            let name = TLSPolicy.normalizedHost(name)
            guard name.hasPrefix("*.") else { return name == host }
            let suffix = name.dropFirst(1)
            guard host.hasSuffix(suffix) else { return false }
            let label = host.dropLast(suffix.count)
            return !label.isEmpty && !label.contains(".")
        }
    }

    /// The four bytes of a dotted IPv4 address, or `nil`.
    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { UInt8($0) }
        return bytes.count == 4 ? bytes : nil
    }
}
