import Foundation

/// PEM (RFC 7468) blocks, read on bytes: the base64 between `-----BEGIN <label>-----` and
/// `-----END <label>-----`.
enum PEM {
    /// The decoded contents of each block labelled `label` in `bytes`, in order; `nil` for a block
    /// whose base64 does not decode.
    static func blocks(in bytes: [UInt8], label: String) -> [[UInt8]?] {
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        var blocks: [[UInt8]?] = []
        var index = 0
        while let start = find(begin, in: bytes, from: index) {
            let contentStart = start + begin.count
            guard let stop = find(end, in: bytes, from: contentStart) else {
                blocks.append(nil)
                break
            }
            let base64 = bytes[contentStart..<stop].filter { !(" \t\r\n" as String).utf8.contains($0) }
            blocks.append(Data(base64Encoded: Data(base64)).map { [UInt8]($0) })
            index = stop + end.count
        }
        return blocks
    }

    /// Whether `bytes` hold a PEM block whose label ends in `suffix`, e.g. `PRIVATE KEY`.
    static func containsBlock(in bytes: [UInt8], labelEndingWith suffix: String) -> Bool {
        let marker = Array("\(suffix)-----".utf8)
        guard let begin = find(Array("-----BEGIN ".utf8), in: bytes, from: 0) else { return false }
        return find(marker, in: bytes, from: begin) != nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
