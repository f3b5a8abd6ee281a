import Foundation

/// A calendar date as TMDB writes it, `"1999-10-15"`, without time zones or formatters.
///
/// TMDB sends `""` for movies with no date yet, so decoding never fails on a date:
/// ``KeyedDecodingContainer/decodeReleaseDate(forKey:)`` turns empty, missing, `null` and
/// malformed values into `nil`.
public struct ReleaseDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, for example `1999`.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// Parses `yyyy-MM-dd`; `nil` for anything else, including `""`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `yyyy-MM-dd`, as TMDB writes it.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Orders dates chronologically.
    public static func < (lhs: ReleaseDate, rhs: ReleaseDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension KeyedDecodingContainer {
    /// The date at `key`, or `nil` when it is missing, `null`, empty or not a `yyyy-MM-dd` string.
    public func decodeReleaseDate(forKey key: Key) -> ReleaseDate? {
        guard let text = try? decodeIfPresent(String.self, forKey: key) else { return nil }
        return ReleaseDate(text)
    }
}
