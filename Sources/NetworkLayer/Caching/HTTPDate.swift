import Foundation

/// HTTP dates (RFC 9110 §5.6.7), parsed on bytes and strictly by their grammar: the IMF-fixdate
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and as a recipient should, the obsolete RFC 850
/// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994` forms. Names are read in
/// any case; anything else (a missing comma, doubled spaces, a two-digit year outside RFC 850, a
/// zone other than `GMT`) is not a date, so an `Expires` in it means already expired.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The date `text` names, or `nil` when it is not an HTTP date.
    /// - Parameters:
    ///   - text: A field value such as `Date`, `Expires` or `Last-Modified`.
    ///   - now: The present, to place a two-digit RFC 850 year within 50 years of it.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let bytes = Array(text.utf8.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else { return asctime(bytes) }
        let dayName = lowercased(bytes[..<comma])
        let rest = Array(bytes[(comma + 1)...])
        if days.contains(dayName) { return imfFixdate(rest) }
        if longDays.contains(dayName) { return rfc850(rest, now: now) }
        return nil
    }

    /// `SP 2DIGIT SP month SP 4DIGIT SP time SP GMT`, after `day-name ","`.
    private static func imfFixdate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 25, bytes[0] == space, bytes[3] == space, bytes[7] == space, bytes[12] == space, bytes[21] == space,
            lowercased(bytes[22...]) == "gmt", let day = number(bytes[1..<3]), let month = monthNumber(bytes[4..<7]),
            let year = number(bytes[8..<12])
        else { return nil }
        return date(year: year, month: month, day: day, time: bytes[13..<21])
    }

    /// `SP 2DIGIT "-" month "-" 2DIGIT SP time SP GMT`, after `day-name-l ","`.
    private static func rfc850(_ bytes: [UInt8], now: Date) -> Date? {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 23, bytes[0] == space, bytes[3] == dash, bytes[7] == dash, bytes[10] == space, bytes[19] == space,
            lowercased(bytes[20...]) == "gmt", let day = number(bytes[1..<3]), let month = monthNumber(bytes[4..<7]),
            let twoDigits = number(bytes[8..<10])
        else { return nil }
        return date(year: fullYear(twoDigits: twoDigits, now: now), month: month, day: day, time: bytes[11..<19])
    }

    /// `day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP 4DIGIT`.
    private static func asctime(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 24, bytes[3] == space, bytes[7] == space, bytes[10] == space, bytes[19] == space,
            days.contains(lowercased(bytes[0..<3])), let month = monthNumber(bytes[4..<7]),
            let day = bytes[8] == space ? number(bytes[9..<10]) : number(bytes[8..<10]), let year = number(bytes[20..<24])
        else { return nil }
        return date(year: year, month: month, day: day, time: bytes[11..<19])
    }

    /// The date of `time` (`HH:MM:SS`) on that day, when all are in range.
    private static func date(year: Int, month: Int, day: Int, time: ArraySlice<UInt8>) -> Date? {
        let colon = UInt8(ascii: ":")
        let start = time.startIndex
        guard time.count == 8, time[start + 2] == colon, time[start + 5] == colon, let hour = number(time[start..<start + 2]),
            let minute = number(time[start + 3..<start + 5]), let second = number(time[start + 6..<start + 8]),
            hour <= 23, minute <= 59, second <= 60, (1...31).contains(day), year >= 1
        else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static let space = UInt8(ascii: " ")

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == space || byte == UInt8(ascii: "\t")
    }

    /// The ASCII letters of `bytes`, lowercased.
    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The number written by `bytes`, all digits.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// The month 1–12 of a three-letter name, any case.
    private static func monthNumber(_ bytes: ArraySlice<UInt8>) -> Int? {
        months.firstIndex(of: lowercased(bytes)).map { $0 + 1 }
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
