import MoviesKit
import Testing

@Suite("Help")
struct HelpTests {
    @Test(
        "--help and -h print usage listing every subcommand and option, exit 0, and start no server",
        arguments: [["--help"], ["-h"], ["details", "abc", "--help"]])
    func help(arguments: [String]) async {
        let embedded = NoServerExpected()
        let run = await movies(arguments) { try embedded.start() }

        #expect(run.status == .success)
        #expect(run.errorLines.isEmpty)
        #expect(run.lines.first?.hasPrefix("USAGE: movies") == true)
        let subcommands = ["popular", "now-playing", "top-rated", "details", "recommendations", "videos", "search", "rate"]
        for subcommand in subcommands {
            #expect(run.lines.contains { $0.hasPrefix("  \(subcommand) ") }, "help lists \(subcommand)")
        }
        for option in ["--page", "--base-url", "--env", "--api-key", "--help"] {
            #expect(run.output.contains(option), "help mentions \(option)")
        }
        #expect(!embedded.wasStarted)
    }

    @Test("Every subcommand help lists actually parses")
    func listedSubcommandsParse() throws {
        let listed = Usage.text.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { !$0.hasPrefix("-") && $0 != "movies" }
        #expect(listed.count == 8)
        for name in listed {
            let sample: [String] =
                switch name {
                case "details", "recommendations", "videos": [name, "1"]
                case "search": [name, "x"]
                case "rate": [name, "1", "5"]
                default: [name]
                }
            #expect(throws: Never.self, "\(name) parses") { try CommandLineParser.parse(sample) }
        }
    }
}
