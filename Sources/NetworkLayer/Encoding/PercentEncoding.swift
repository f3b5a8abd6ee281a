/// Percent-encoding with byte tables (RFC 3986), faster than `addingPercentEncoding` and
/// never dependent on Foundation's character sets.
enum PercentEncoding {
    /// Whether `byte` is unreserved: `A-Z a-z 0-9 - . _ ~`. Everything else is escaped in queries and forms.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether `byte` may stay raw in a path: unreserved, sub-delims, `:`, `@` and `/`.
    @inline(__always)
    static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
            UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default: isUnreserved(byte)
        }
    }

    /// Appends `string`'s UTF-8 bytes to `output`, escaping every byte outside the unreserved set.
    static func appendEscaped(_ string: String, to output: inout [UInt8]) {
        append(string, to: &output, keeping: isUnreserved)
    }

    /// `string` with every byte outside the unreserved set escaped (space is `%20`, never `+`).
    static func escaped(_ string: String) -> String {
        encode(string, keeping: isUnreserved)
    }

    /// `path` with every byte a path may not carry raw escaped, including `%`, `?` and `#`.
    static func escapedPath(_ path: String) -> String {
        encode(path, keeping: isPathByte)
    }

    private static func encode(_ string: String, keeping allowed: (UInt8) -> Bool) -> String {
        if string.utf8.allBytes(allowed) { return string }
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count * 3)
        append(string, to: &output, keeping: allowed)
        return String(decoding: output, as: UTF8.self)
    }

    @inline(__always)
    private static func append(_ string: String, to output: inout [UInt8], keeping allowed: (UInt8) -> Bool) {
        // The bytes of the string's own storage: stepping its UTF-8 view costs several times more a byte.
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { append(byte, to: &output, keeping: allowed) }
        }
        if appended == nil {
            for byte in string.utf8 { append(byte, to: &output, keeping: allowed) }
        }
    }

    @inline(__always)
    private static func append(_ byte: UInt8, to output: inout [UInt8], keeping allowed: (UInt8) -> Bool) {
        if allowed(byte) {
            output.append(byte)
        } else {
            output.append(UInt8(ascii: "%"))
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
