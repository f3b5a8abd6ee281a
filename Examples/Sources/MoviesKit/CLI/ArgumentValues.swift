/// Checks and converts the values given on the command line, with messages that say what is expected.
enum ArgumentValues {
    /// The highest page TMDB serves.
    static let maximumPage = 500

    /// A TMDB movie id: a positive whole number.
    static func movieID(_ text: String) throws(UsageError) -> Int {
        guard let id = Int(text), id > 0 else {
            throw UsageError("movie id must be a positive whole number, got '\(text)'")
        }
        return id
    }

    /// A page number from 1 to 500, TMDB's range.
    static func page(_ text: String) throws(UsageError) -> Int {
        guard let page = Int(text), (1...maximumPage).contains(page) else {
            throw UsageError("--page must be a whole number from 1 to \(maximumPage), got '\(text)'")
        }
        return page
    }

    /// A timeout in seconds: a number greater than 0 and at most an hour, such as `10` or `2.5`.
    static func timeout(_ text: String) throws(UsageError) -> Double {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
            throw UsageError("--timeout must be a number of seconds above 0 and up to 3600, such as 10 or 2.5, got '\(text)'")
        }
        return seconds
    }

    /// A search query: any text that is not blank.
    static func query(_ text: String) throws(UsageError) -> String {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw UsageError("search query must not be empty")
        }
        return text
    }

    /// A rating as TMDB accepts it: 0.5 to 10 in steps of 0.5, such as `8` or `8.5`.
    static func rating(_ text: String) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, (0.5...10).contains(value), (value * 2).rounded() == value * 2 else {
            throw UsageError("rating must be from 0.5 to 10 in steps of 0.5, such as 8 or 8.5, got '\(text)'")
        }
        return value
    }
}
