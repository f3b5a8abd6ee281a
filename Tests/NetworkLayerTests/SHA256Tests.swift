import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

/// The SHA-256 that public-key pins are computed with, against the FIPS 180-2 examples (NIST).
@Suite("SHA-256")
struct SHA256Tests {
    static let vectors: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ]

    @Test("Each FIPS 180-2 example hashes to its published digest", arguments: vectors.indices)
    func vector(index: Int) {
        let (message, digest) = Self.vectors[index]
        let hex = SHA256.hash(Array(message.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == digest)
    }

    @Test("Messages of 55, 56 and 64 bytes, where the padding spills into a second block, hash as openssl does")
    func paddingBoundaries() throws {
        for count in [55, 56, 63, 64, 65] {
            let message = String(repeating: "x", count: count)
            let hex = SHA256.hash(Array(message.utf8)).map { String(format: "%02x", $0) }.joined()
            let directory = try TemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory.url) }
            try Data(message.utf8).write(to: directory.file("m"))
            let openssl = try TLSPolicyServers.shell("openssl dgst -sha256 -r m | cut -d' ' -f1", in: directory.url)
            #expect(hex == openssl.trimmingCharacters(in: .whitespacesAndNewlines), "\(count) bytes")
        }
    }
}
