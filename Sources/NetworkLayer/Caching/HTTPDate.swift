import Foundation

/// HTTP dates (RFC 9110 §5.6.7), parsed on bytes: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
/// and as a recipient should, the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime
/// `Sun Nov  6 08:49:37 1994` forms.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it is not an HTTP date.
    /// - Parameters:
    ///   - text: A field value such as `Date`, `Expires` or `Last-Modified`.
    ///   - now: The present, to place a two-digit RFC 850 year within 50 years of it.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        // Words separated by spaces, commas and dashes; colons stay inside the time.
        let separators: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "\t")]
        var words = text.utf8.split(whereSeparator: { separators.contains($0) }).map { String(decoding: $0, as: UTF8.self) }
        guard words.count >= 5, let first = words.first, first.utf8.allSatisfy(isLetter) else { return nil }
        words.removeFirst()
        let day: Int
        let month: Int
        let year: Int
        let time: String
        if let asctimeMonth = monthNumber(words[0]) {
            // asctime: month day time year.
            guard words.count == 4, let parsedDay = Int(words[1]), let parsedYear = Int(words[3]), words[3].utf8.count == 4 else {
                return nil
            }
            (day, month, year, time) = (parsedDay, asctimeMonth, parsedYear, words[2])
        } else {
            // IMF-fixdate and RFC 850: day month year time GMT.
            guard words.count == 5, words[4] == "GMT", let parsedDay = Int(words[0]), let parsedMonth = monthNumber(words[1]),
                let parsedYear = Int(words[2])
            else { return nil }
            switch words[2].utf8.count {
            case 4: year = parsedYear
            case 2: year = fullYear(twoDigits: parsedYear, now: now)
            default: return nil
            }
            (day, month, time) = (parsedDay, parsedMonth, words[3])
        }
        let clock = time.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }) else { return nil }
        let parts = clock.compactMap { Int(String(decoding: $0, as: UTF8.self)) }
        guard parts.count == 3, (0...23).contains(parts[0]), (0...59).contains(parts[1]), (0...60).contains(parts[2]),
            (1...31).contains(day), year >= 1
        else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + parts[0] * 3600 + parts[1] * 60 + parts[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The month 1–12 of a three-letter name, any case.
    private static func monthNumber(_ name: String) -> Int? {
        guard name.utf8.count == 3, let index = months.firstIndex(of: name.lowercased()) else { return nil }
        return index + 1
    }

    /// RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past
    /// year with the same last two digits.
    private static func fullYear(twoDigits: Int, now: Date) -> Int {
        let currentYear = 1970 + Int(now.timeIntervalSince1970 / 31_556_952)
        var year = (currentYear / 100) * 100 + twoDigits
        if year > currentYear + 50 { year -= 100 }
        return year
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
