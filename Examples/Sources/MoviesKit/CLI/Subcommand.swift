/// One `movies` subcommand: its name, arguments, help line and how it becomes a ``MovieAPI`` call.
///
/// The parser and the usage text both read ``all``, so help lists exactly what parses.
struct Subcommand: Sendable {
    /// The word on the command line, for example `now-playing`.
    let name: String
    /// The names of its positional arguments, for example `["id", "rating"]`.
    let arguments: [String]
    /// Whether it accepts `--page`.
    let takesPage: Bool
    /// One line for the usage text.
    let summary: String
    /// Makes the call from the positional arguments (already counted) and the page.
    let makeCall: @Sendable (_ arguments: [String], _ page: Int) throws(UsageError) -> MovieAPI

    /// Every subcommand, in the order the usage text lists them. The first is the default.
    static let all: [Subcommand] = [
        Subcommand(name: "popular", arguments: [], takesPage: true, summary: "Popular movies (the default)") { _, page throws(UsageError) in
            .popular(page: page)
        },
        Subcommand(name: "now-playing", arguments: [], takesPage: true, summary: "Movies in theatres now") { _, page throws(UsageError) in
            .nowPlaying(page: page)
        },
        Subcommand(name: "top-rated", arguments: [], takesPage: true, summary: "The best-rated movies") { _, page throws(UsageError) in
            .topRated(page: page)
        },
        Subcommand(name: "details", arguments: ["id"], takesPage: false, summary: "One movie's details") {
            arguments, _ throws(UsageError) in
            .details(id: try ArgumentValues.movieID(arguments[0]))
        },
        Subcommand(name: "recommendations", arguments: ["id"], takesPage: false, summary: "Movies like this one") {
            arguments, _ throws(UsageError) in
            .recommendations(id: try ArgumentValues.movieID(arguments[0]))
        },
        Subcommand(name: "videos", arguments: ["id"], takesPage: false, summary: "Trailers, teasers and clips") {
            arguments, _ throws(UsageError) in
            .videos(id: try ArgumentValues.movieID(arguments[0]))
        },
        Subcommand(name: "search", arguments: ["query"], takesPage: true, summary: "Movies whose title matches") {
            arguments, page throws(UsageError) in
            .search(query: try ArgumentValues.query(arguments[0]), page: page)
        },
        Subcommand(name: "rate", arguments: ["id", "rating"], takesPage: false, summary: "Rate a movie, 0.5 to 10 in steps of 0.5") {
            arguments, _ throws(UsageError) in
            .rate(id: try ArgumentValues.movieID(arguments[0]), value: try ArgumentValues.rating(arguments[1]))
        },
    ]

    /// The subcommand called `name`, if any.
    static func named(_ name: String) -> Subcommand? {
        all.first { $0.name == name }
    }

    /// `details <id>` or `popular [--page <n>]`, for the usage text and errors.
    var synopsis: String {
        ([name] + arguments.map { "<\($0)>" } + (takesPage ? ["[--page <n>]"] : [])).joined(separator: " ")
    }
}
