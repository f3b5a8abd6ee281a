import Foundation
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

    /// Messages of `count` letters x, around the block boundary where the padding spills into a
    /// second block, and their digests as `openssl dgst -sha256` prints them.
    static let boundaries: [(Int, String)] = [
        (55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
        (56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"),
        (63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"),
        (64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
        (65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"),
    ]

    @Test("Messages of 55 to 65 bytes, where the padding spills into a second block, hash as openssl does", arguments: boundaries.indices)
    func paddingBoundary(index: Int) {
        let (count, digest) = Self.boundaries[index]
        let hex = SHA256.hash(Array(String(repeating: "x", count: count).utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == digest)
    }
}
