import Foundation

/// Turns API values into the lines the command prints.
public enum MovieFormatter {
    /// A heading and an aligned table of ids, titles, years and ratings.
    /// - Parameters:
    ///   - page: The page to show.
    ///   - title: The heading, for example `Popular movies`.
    /// - Returns: The lines to print.
    public static func lines(for page: MoviePage, title: String) -> [String] {
        let noun = page.totalResults == 1 ? "result" : "results"
        let heading = "\(title) · page \(page.page) of \(max(page.totalPages, 1)) · \(grouped(page.totalResults)) \(noun)"
        guard !page.results.isEmpty else {
            return [heading, "", "No movies found."]
        }
        var table = TextTable([
            .init(header: "ID", alignment: .right),
            .init(header: "Title", alignment: .left),
            .init(header: "Year", alignment: .right),
            .init(header: "Rating", alignment: .right),
        ])
        for movie in page.results {
            table.append([String(movie.id), movie.title, year(movie.year), movie.voteCount > 0 ? rating(movie.voteAverage) : "—"])
        }
        return [heading, ""] + table.lines
    }

    /// A movie's title, tagline and facts, then its overview wrapped to 80 columns.
    public static func lines(for movie: MovieDetails) -> [String] {
        var lines = ["\(movie.title) (\(year(movie.year)))"]
        if !movie.tagline.isEmpty {
            lines.append("“\(movie.tagline)”")
        }
        lines.append("")
        var facts: [(String, String)] = []
        if movie.originalTitle != movie.title {
            facts.append(("Original title", movie.originalTitle))
        }
        facts.append(("Released", movie.releaseDate?.description ?? "not yet announced"))
        facts.append(("Runtime", movie.runtime.map(duration) ?? "unknown"))
        facts.append(("Genres", movie.genres.isEmpty ? "none listed" : movie.genres.map(\.name).joined(separator: ", ")))
        let votes = movie.voteCount == 1 ? "1 vote" : "\(grouped(movie.voteCount)) votes"
        facts.append(("Rating", movie.voteCount > 0 ? "\(rating(movie.voteAverage)) / 10 from \(votes)" : "no votes yet"))
        facts.append(("Status", movie.status.isEmpty ? "unknown" : movie.status))
        facts.append(("TMDB id", String(movie.id)))
        let labelWidth = facts.map(\.0.count).reduce(0, max) + 1
        lines += facts.map { label, value in
            (label + ":").padding(toLength: labelWidth + 1, withPad: " ", startingAt: 0) + value
        }
        if !movie.overview.isEmpty {
            lines.append("")
            lines += wrap(movie.overview, width: 80)
        }
        return lines
    }

    /// A table of a movie's videos with links to watch them.
    public static func lines(for videos: VideoList) -> [String] {
        let heading = "Videos for movie \(videos.id)"
        guard !videos.results.isEmpty else { return [heading, "", "No videos."] }
        var table = TextTable([
            .init(header: "Type", alignment: .left),
            .init(header: "Name", alignment: .left),
            .init(header: "Watch", alignment: .left),
        ])
        for video in videos.results {
            table.append([video.type, video.name, video.watchURL ?? "\(video.site) \(video.key)"])
        }
        return [heading, ""] + table.lines
    }

    /// The confirmation of a rating.
    public static func line(forRating value: Double, movieID: Int, status: TMDBStatus) -> String {
        "Rated movie \(movieID): \(rating(value)) / 10. TMDB says: \(status.statusMessage)"
    }

    /// A year, or an em dash when unknown.
    static func year(_ year: Int?) -> String {
        year.map(String.init) ?? "—"
    }

    /// A rating with one decimal, for example `8.4`.
    static func rating(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// Minutes as `2h 19m`.
    static func duration(_ minutes: Int) -> String {
        minutes < 60 ? "\(minutes)m" : "\(minutes / 60)h \(minutes % 60)m"
    }

    /// An integer with comma thousands separators, independent of the locale: `26280` → `26,280`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// Splits `text` into lines of at most `width` characters at spaces (longer words stand alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
