import Foundation

/// A `Content-Range` header of a byte range (RFC 9110 §14.4), parsed on its UTF-8 bytes.
///
/// `bytes 100-199/1000` is ``range(first:last:completeLength:)`` (the length `nil` for `/*`), and
/// `bytes */1000`, the answer of a `416`, is ``unsatisfied(completeLength:)``. Anything else — another
/// unit, a sign, a number past `Int64`, a last byte before the first or at or past the length — is no
/// `ContentRange` at all, so a resumed download starts over rather than trusting it.
enum ContentRange: Equatable {
    /// Bytes `first` through `last`, both included, of a representation `completeLength` long (`nil`: unknown).
    case range(first: Int64, last: Int64, completeLength: Int64?)
    /// No range could be served from a representation `completeLength` long.
    case unsatisfied(completeLength: Int64)

    /// Parses `value`, or `nil` when it is not a well-formed byte range.
    init?(_ value: String) {
        var bytes = Substring(value).utf8[...]
        bytes = Self.trimmed(bytes)
        // The range unit is case-insensitive; one space follows it.
        let unit = Array("bytes ".utf8)
        guard bytes.count > unit.count, zip(bytes.prefix(unit.count), unit).allSatisfy({ Self.lowercased($0) == $1 }) else { return nil }
        bytes = bytes.dropFirst(unit.count)
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let range = bytes[..<slash]
        let length = bytes[bytes.index(after: slash)...]
        let completeLength: Int64?
        if length.elementsEqual("*".utf8) {
            completeLength = nil
        } else {
            guard let parsed = Self.number(length) else { return nil }
            completeLength = parsed
        }
        if range.elementsEqual("*".utf8) {
            guard let completeLength else { return nil }
            self = .unsatisfied(completeLength: completeLength)
            return
        }
        guard let dash = range.firstIndex(of: UInt8(ascii: "-")),
            let first = Self.number(range[..<dash]),
            let last = Self.number(range[range.index(after: dash)...]),
            last >= first
        else { return nil }
        if let completeLength, last >= completeLength { return nil }
        self = .range(first: first, last: last, completeLength: completeLength)
    }

    /// The decimal number `digits` spells, or `nil` when it is empty, holds anything but digits, or
    /// does not fit in `Int64`.
    private static func number(_ digits: Substring.UTF8View.SubSequence) -> Int64? {
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow, !overflowAgain else { return nil }
            value = sum
        }
        return value
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[start...end]
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
