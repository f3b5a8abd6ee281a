import Foundation

/// Parses `Set-Cookie` field values as RFC 6265 §5.2 says, on their UTF-8 bytes.
enum SetCookieParser {
    /// One parsed `Set-Cookie`, before the storage model (§5.3) decides whether it is kept.
    struct Parsed: Equatable {
        var name: String
        var value: String
        var expires: Date?
        var maxAge: Int?
        var domain: String?
        var path: String?
        var isSecure = false
        var isHTTPOnly = false
        var sameSite: CookieJar.Cookie.SameSite?
    }

    /// The cookie of one `Set-Cookie` value, or `nil` when it is to be ignored: longer than
    /// `maximumSize` bytes, with a control character, without `=` or with an empty name.
    static func parse(_ field: String, maximumSize: Int) -> Parsed? {
        let bytes = Array(field.utf8)
        guard bytes.count <= maximumSize else { return nil }
        // RFC 6265bis §5.6: a control character (but HTAB) makes the whole cookie ignored.
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        var parts = bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = trimmed(pair[pair.startIndex..<equals])
        guard !name.isEmpty else { return nil }
        var cookie = Parsed(name: string(name), value: string(trimmed(pair[(equals + 1)...])))
        for part in parts {
            let attributeName: ArraySlice<UInt8>
            let attributeValue: ArraySlice<UInt8>
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                attributeName = trimmed(part[part.startIndex..<equals])
                attributeValue = trimmed(part[(equals + 1)...])
            } else {
                attributeName = trimmed(part)
                attributeValue = []
            }
            switch string(attributeName).lowercased() {
            case "expires":
                if let date = CookieDate.parse(attributeValue) { cookie.expires = date }
            case "max-age":
                if let seconds = maxAge(attributeValue) { cookie.maxAge = seconds }
            case "domain":
                guard !attributeValue.isEmpty else { continue }
                let domain = attributeValue.first == UInt8(ascii: ".") ? attributeValue.dropFirst() : attributeValue
                cookie.domain = string(domain).lowercased()
            case "path":
                cookie.path = attributeValue.first == UInt8(ascii: "/") ? string(attributeValue) : nil
            case "secure": cookie.isSecure = true
            case "httponly": cookie.isHTTPOnly = true
            case "samesite": cookie.sameSite = CookieJar.Cookie.SameSite(rawValue: string(attributeValue).lowercased())
            default: continue
            }
        }
        return cookie
    }

    /// The `Set-Cookie` values a transport joined into one field with ", " (as Foundation and
    /// AsyncHTTPClient's headers join repeated fields): split at each comma that a `name=` follows,
    /// so that the comma of an `Expires` date (`Wed, 21 Oct 2015 …`) stays in its cookie.
    static func split(_ joined: String) -> [String] {
        let bytes = Array(joined.utf8)
        var values: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ","), startsCookie(bytes, at: index + 1) {
                values.append(string(trimmed(bytes[start..<index])))
                start = index + 1
            }
            index += 1
        }
        values.append(string(trimmed(bytes[start...])))
        return values.filter { !$0.isEmpty }
    }

    /// Whether a cookie's `name=` starts at `index`, after optional spaces.
    private static func startsCookie(_ bytes: [UInt8], at index: Int) -> Bool {
        var index = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        let nameStart = index
        while index < bytes.count, HTTPHeaders.isTokenByte(bytes[index]) { index += 1 }
        return index > nameStart && index < bytes.count && bytes[index] == UInt8(ascii: "=")
    }

    /// `Max-Age`'s seconds (§5.2.2): an optional `-` and digits, clamped; `nil` when not that.
    private static func maxAge(_ bytes: ArraySlice<UInt8>) -> Int? {
        var digits = bytes
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var seconds = 0
        for digit in digits {
            // A hostile 100-digit number is held at ten years' worth rather than overflowing.
            seconds = min(seconds * 10 + Int(digit - 0x30), 10 * 365 * 86_400)
        }
        return negative ? -seconds : seconds
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }

    /// The bytes as text; invalid UTF-8 becomes U+FFFD, never a crash.
    static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// The cookie-date of RFC 6265 §5.1.1, the lenient date of `Expires`, on bytes.
enum CookieDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `bytes` give, or `nil` when they are not a cookie-date.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in bytes.split(whereSeparator: isDelimiter) {
            if time == nil, let found = parseTime(token) {
                time = found
            } else if day == nil, let found = leadingNumber(token, digits: 1...2) {
                day = found
            } else if month == nil, token.count >= 3,
                let index = months.firstIndex(of: SetCookieParser.string(token.prefix(3)).lowercased())
            {
                month = index + 1
            } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    /// A number of `digits` digits at the start of `token`, followed by nothing or a non-digit.
    private static func leadingNumber(_ token: ArraySlice<UInt8>, digits: ClosedRange<Int>) -> Int? {
        let number = token.prefix { (0x30...0x39).contains($0) }
        guard digits.contains(number.count) else { return nil }
        return number.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hh:mm:ss`, each one or two digits.
    private static func parseTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        let fields = token.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        let numbers = fields.enumerated().compactMap { index, field -> Int? in
            // The seconds may be followed by non-digits, as a day or a year may.
            index == 2
                ? leadingNumber(field, digits: 1...2)
                : (field.allSatisfy { (0x30...0x39).contains($0) } ? leadingNumber(field, digits: 1...2) : nil)
        }
        guard numbers.count == 3 else { return nil }
        return (numbers[0], numbers[1], numbers[2])
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
