import Foundation

/// The parts of an X.509 certificate (RFC 5280) that ``TLSPolicy`` needs, read from its DER bytes
/// without a cryptography library: the issuer and subject names (as their DER bytes, to link a
/// certificate to its issuer), the `subjectPublicKeyInfo` (whose SHA-256 is the pin, RFC 7469), and
/// the DNS names and IP addresses of its `subjectAltName` extension (which hosts a pin set covers), and
/// its key identifiers (which, with the names, link it to its issuer).
///
/// It walks the structure only: nothing is verified here. Signatures and validity are the TLS
/// library's to check, before any pin is.
struct CertificateDER: Sendable, Hashable {
    /// The whole certificate, DER.
    let bytes: [UInt8]
    /// The issuer's `Name`, DER (tag and length included).
    let issuer: [UInt8]
    /// The subject's `Name`, DER.
    let subject: [UInt8]
    /// The `SubjectPublicKeyInfo`, DER: what RFC 7469 hashes.
    let subjectPublicKeyInfo: [UInt8]
    /// The `dNSName`s of the `subjectAltName` extension, lowercased.
    let dnsNames: [String]
    /// The `iPAddress`es of the `subjectAltName` extension, 4 or 16 bytes each.
    let ipAddresses: [[UInt8]]
    /// The `keyIdentifier` of the `authorityKeyIdentifier` extension: which of its issuer's keys signed it.
    let authorityKeyIdentifier: [UInt8]?
    /// The `subjectKeyIdentifier` extension: the identifier of its own key.
    let subjectKeyIdentifier: [UInt8]?

    /// The certificate in `bytes`, or `nil` when they are not one DER-encoded certificate.
    init?(_ bytes: [UInt8]) {
        var outer = DERReader(bytes[...])
        guard let certificate = outer.read(tag: 0x30), outer.isAtEnd else { return nil }
        var fields = DERReader(certificate)
        guard let tbs = fields.read(tag: 0x30) else { return nil }
        var reader = DERReader(tbs)
        _ = reader.read(tag: 0xA0)  // version, absent in v1 certificates
        guard reader.read(tag: 0x02) != nil,  // serialNumber
            reader.read(tag: 0x30) != nil,  // signature algorithm
            let issuer = reader.readElement(tag: 0x30),
            reader.read(tag: 0x30) != nil,  // validity
            let subject = reader.readElement(tag: 0x30),
            let subjectPublicKeyInfo = reader.readElement(tag: 0x30)
        else { return nil }
        _ = reader.read(tag: 0x81)  // issuerUniqueID
        _ = reader.read(tag: 0x82)  // subjectUniqueID
        var dnsNames: [String] = []
        var ipAddresses: [[UInt8]] = []
        var authorityKeyIdentifier: [UInt8]?
        var subjectKeyIdentifier: [UInt8]?
        if let explicit = reader.read(tag: 0xA3) {
            var wrapper = DERReader(explicit)
            var extensions = DERReader(wrapper.read(tag: 0x30) ?? [])
            while let element = extensions.read(tag: 0x30) {
                var item = DERReader(element)
                guard let oid = item.read(tag: 0x06).map(Array.init) else { continue }
                _ = item.read(tag: 0x01)  // critical
                var octets = DERReader(item.read(tag: 0x04) ?? [])
                if oid == Self.subjectKeyIdentifierOID {
                    subjectKeyIdentifier = octets.read(tag: 0x04).map(Array.init)
                    continue
                }
                if oid == Self.authorityKeyIdentifierOID {
                    var fields = DERReader(octets.read(tag: 0x30) ?? [])
                    authorityKeyIdentifier = fields.read(tag: 0x80).map(Array.init)  // [0] keyIdentifier
                    continue
                }
                guard oid == Self.subjectAltNameOID else { continue }
                var names = DERReader(octets.read(tag: 0x30) ?? [])
                while let (tag, value) = names.readAny() {
                    if tag == 0x82 { dnsNames.append(String(decoding: value, as: UTF8.self).lowercased()) }
                    if tag == 0x87 { ipAddresses.append(Array(value)) }
                }
            }
        }
        self.bytes = bytes
        self.issuer = Array(issuer)
        self.subject = Array(subject)
        self.subjectPublicKeyInfo = Array(subjectPublicKeyInfo)
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.authorityKeyIdentifier = authorityKeyIdentifier
        self.subjectKeyIdentifier = subjectKeyIdentifier
    }

    /// Whether `issuer` may be the certificate that signed this one: its subject is this one's issuer
    /// and, when both certificates carry key identifiers, its key is the one this names. Nothing is
    /// verified: call it only on certificates already trusted.
    func mayBeIssued(by issuer: CertificateDER) -> Bool {
        guard issuer.subject == self.issuer else { return false }
        guard let authority = authorityKeyIdentifier, let key = issuer.subjectKeyIdentifier else { return true }
        return authority == key
    }

    /// The RFC 7469 pin of the public key: base64 of the SHA-256 of the `SubjectPublicKeyInfo`, as
    /// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints it.
    var publicKeyHash: String { Data(SHA256.hash(subjectPublicKeyInfo)).base64EncodedString() }

    /// 2.5.29.17, `id-ce-subjectAltName`.
    private static let subjectAltNameOID: [UInt8] = [0x55, 0x1D, 0x11]
    /// 2.5.29.14, `id-ce-subjectKeyIdentifier`.
    private static let subjectKeyIdentifierOID: [UInt8] = [0x55, 0x1D, 0x0E]
    /// 2.5.29.35, `id-ce-authorityKeyIdentifier`.
    private static let authorityKeyIdentifierOID: [UInt8] = [0x55, 0x1D, 0x23]
}

/// Reads DER elements (tag, length, value) one after another; definite lengths only, as DER requires.
struct DERReader {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    var isAtEnd: Bool { rest.isEmpty }

    /// The value of the next element when its tag is `tag` (and moves past it); `nil`, moving nowhere, otherwise.
    mutating func read(tag: UInt8) -> ArraySlice<UInt8>? {
        guard rest.first == tag, let (_, value, _) = Self.element(rest) else { return nil }
        rest = rest[value.endIndex...]
        return value
    }

    /// The whole next element (tag and length included) when its tag is `tag`, and moves past it.
    mutating func readElement(tag: UInt8) -> ArraySlice<UInt8>? {
        let whole = rest
        guard whole.first == tag, let (_, value, start) = Self.element(whole) else { return nil }
        rest = whole[value.endIndex...]
        return whole[start..<value.endIndex]
    }

    /// The next element's tag and value, whatever its tag, and moves past it.
    mutating func readAny() -> (UInt8, ArraySlice<UInt8>)? {
        guard let (tag, value, _) = Self.element(rest) else { return nil }
        rest = rest[value.endIndex...]
        return (tag, value)
    }

    /// The tag, value and start index of the element at the start of `bytes`, if it is whole.
    private static func element(_ bytes: ArraySlice<UInt8>) -> (UInt8, ArraySlice<UInt8>, Int)? {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        index += 1
        guard index < bytes.endIndex else { return nil }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), bytes.endIndex - index >= count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard length >= 0, bytes.endIndex - index >= length else { return nil }
        return (tag, bytes[index..<(index + length)], bytes.startIndex)
    }
}
