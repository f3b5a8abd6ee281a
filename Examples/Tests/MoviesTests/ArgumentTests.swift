import MoviesKit
import Testing

@Suite("Command-line arguments")
struct ArgumentTests {
    @Test(
        "Bad arguments are usage errors: exit 64, one line on stderr, nothing sent",
        arguments: [
            (["details", "abc"], "movie id must be a positive whole number, got 'abc'"),
            (["details", "-5"], "movie id must be a positive whole number, got '-5'"),
            (["details"], "details takes <id>, got none"),
            (["details", "550", "551"], "details takes <id>, got '550 551'"),
            (["rate", "550", "11"], "rating must be from 0.5 to 10 in steps of 0.5, such as 8 or 8.5, got '11'"),
            (["rate", "550", "8.3"], "rating must be from 0.5 to 10 in steps of 0.5, such as 8 or 8.5, got '8.3'"),
            (["rate", "550", "0"], "rating must be from 0.5 to 10 in steps of 0.5, such as 8 or 8.5, got '0'"),
            (["rate", "550", "nan"], "rating must be from 0.5 to 10 in steps of 0.5, such as 8 or 8.5, got 'nan'"),
            (["rate", "550"], "rate takes <id> <rating>, got '550'"),
            (["search"], "search takes <query>, got none"),
            (["search", "  "], "search query must not be empty"),
            (["popular", "--page", "0"], "--page must be a whole number from 1 to 500, got '0'"),
            (["popular", "--page", "501"], "--page must be a whole number from 1 to 500, got '501'"),
            (["popular", "--page", "two"], "--page must be a whole number from 1 to 500, got 'two'"),
            (["popular", "--page"], "--page needs a value"),
            (["details", "550", "--page", "2"], "details does not take --page"),
            (["popular", "extra"], "popular takes no arguments, got 'extra'"),
            (["upcoming"], "unknown subcommand 'upcoming'"),
            (["--verbose"], "unknown option '--verbose'"),
            (["--env", "dev"], "--env must be one of production, staging, qa, got 'dev'"),
            (
                ["--base-url", "api.themoviedb.org/3"],
                "--base-url must be an http or https URL such as https://api.themoviedb.org/3, got 'api.themoviedb.org/3'"
            ),
            (["--env", "qa", "--base-url", "http://localhost/3"], "give either --env or --base-url, not both"),
        ]
    )
    func usageErrors(arguments: [String], message: String) async {
        let embedded = NoServerExpected()
        let run = await movies(arguments) { try embedded.start() }

        #expect(run.status == .usage)
        #expect(run.status.rawValue == 64)
        #expect(run.lines.isEmpty)
        #expect(run.errorLines == ["movies: \(message) (see 'movies --help')"])
        #expect(!embedded.wasStarted)
    }

    @Test(
        "Arguments become the right API call",
        arguments: [
            ([], MovieAPI.popular(page: 1)),
            (["--page", "3"], .popular(page: 3)),
            (["now-playing", "--page=2"], .nowPlaying(page: 2)),
            (["top-rated"], .topRated(page: 1)),
            (["details", "550"], .details(id: 550)),
            (["recommendations", "550"], .recommendations(id: 550)),
            (["videos", "949"], .videos(id: 949)),
            (["search", "the dark knight", "--page", "2"], .search(query: "the dark knight", page: 2)),
            (["search", "--", "--weird"], .search(query: "--weird", page: 1)),
            (["rate", "550", "8.5"], .rate(id: 550, value: 8.5)),
            (["--api-key", "k", "rate", "550", "10"], .rate(id: 550, value: 10)),
        ]
    )
    func parsesCalls(arguments: [String], call: MovieAPI) throws {
        let invocation = try CommandLineParser.parse(arguments)

        #expect(invocation.action == .call(call))
    }

    @Test("--env and --base-url choose the target; options may come anywhere")
    func targets() throws {
        #expect(try CommandLineParser.parse(["details", "1"]).target == .embedded)
        #expect(try CommandLineParser.parse(["--env", "staging", "details", "1"]).target == .remote(.staging))
        #expect(try CommandLineParser.parse(["details", "1", "--env=QA"]).target == .remote(.qa))
        let custom = try CommandLineParser.parse(["details", "--base-url", "https://api.themoviedb.org/3", "1", "--api-key", "abc"])
        #expect(custom.target == .remote(.custom("https://api.themoviedb.org/3")))
        #expect(custom.apiKey == "abc")
        #expect(custom.action == .call(.details(id: 1)))
    }
}
