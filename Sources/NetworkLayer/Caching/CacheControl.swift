import Foundation

/// The directives of a `Cache-Control` field (RFC 9111 §5.2), parsed on its bytes.
///
/// Names are lowercased; a directive that appears twice keeps its first value (§4.2.1); a value may
/// be a token or a quoted string (its quotes and backslash escapes removed). As the grammar has no
/// whitespace around `=`, `max-age =5` is not a `max-age` and `max-age= 5` is an invalid one.
struct CacheControl: Sendable, Equatable {
    /// Each directive's value, `nil` for one without `=`.
    private(set) var directives: [String: String?] = [:]

    /// The largest delta-seconds a cache needs (RFC 9111 §1.2.2): larger values become this.
    static let maximumSeconds = 2_147_483_648

    /// Parses `value`, a `Cache-Control` field (several lines joined by commas); `nil` has no directives.
    init(_ value: String?) {
        guard let value else { return }
        let bytes = Array(value.utf8)
        var index = 0
        while index < bytes.count {
            // Skip separators and whitespace before a name.
            while index < bytes.count, bytes[index] == UInt8(ascii: ",") || Self.isSpace(bytes[index]) { index += 1 }
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") { index += 1 }
            var name = Self.trimmed(bytes[nameStart..<index]).lowercased()
            var argument: String?
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                // The grammar has no whitespace around `=`: a name before a space is not the
                // directive (it is ignored), and a value after one is invalid (empty).
                if index > nameStart, Self.isSpace(bytes[index - 1]) { name = "" }
                index += 1
                let spaced = index < bytes.count && Self.isSpace(bytes[index])
                while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
                if spaced {
                    while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                    argument = ""
                } else if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    var unquoted: [UInt8] = []
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                        unquoted.append(bytes[index])
                        index += 1
                    }
                    index += 1
                    argument = String(decoding: unquoted, as: UTF8.self)
                    // Anything between the closing quote and the next comma is ignored.
                    while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                } else {
                    let valueStart = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                    argument = Self.trimmed(bytes[valueStart..<index])
                }
            }
            if !name.isEmpty, directives[name] == nil { directives[name] = .some(argument) }
        }
    }

    /// Whether the directive `name` (lowercase) is present, with or without a value.
    func contains(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// The delta-seconds of `name`: `nil` when absent, 0 when its value is missing or not a number
    /// (an invalid `max-age` makes a response stale), at most ``maximumSeconds``.
    func seconds(_ name: String) -> Int? {
        guard let entry = directives[name] else { return nil }
        return entry.flatMap(Self.deltaSeconds) ?? 0
    }

    /// `max-stale`'s allowance: `nil` when absent, unlimited (``maximumSeconds``) without a value.
    var maxStale: Int? {
        guard let entry = directives["max-stale"] else { return nil }
        guard let value = entry else { return Self.maximumSeconds }
        return Self.deltaSeconds(value) ?? 0
    }

    /// Parses delta-seconds (`1*DIGIT`), capping large values; `nil` when not only digits.
    static func deltaSeconds(_ text: String) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var value = 0
        for digit in digits {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value >= maximumSeconds { return maximumSeconds }
        }
        return value
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
