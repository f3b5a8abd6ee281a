import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The seconds to wait from `now`, or `nil` when `value` is neither form; a date in the past gives 0.
    /// Whitespace around the value is optional whitespace (OWS): spaces and tabs only, read as bytes.
    static func seconds(from value: String, now: Date) -> TimeInterval? {
        let value = trimmed(value)
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return TimeInterval(value) ?? .infinity
        }
        guard let date = date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses the three HTTP date formats: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the
    /// obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
    static func date(from value: String) -> Date? {
        let collapsed = value.utf8.split(separator: space).map { String(Substring($0)) }.joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            // A formatter per call: Retry-After is rare, and DateFormatter is not Sendable everywhere.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// `value` without the spaces and tabs around it (RFC 9110's OWS), cut at those bytes.
    private static func trimmed(_ value: String) -> String {
        let bytes = value.utf8
        guard let first = bytes.firstIndex(where: { $0 != space && $0 != tab }),
            let last = bytes.lastIndex(where: { $0 != space && $0 != tab })
        else { return "" }
        return String(Substring(bytes[first...last]))
    }
}
