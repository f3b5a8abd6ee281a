import FixtureServer
import MoviesKit
import Testing

@Suite("Details, videos and missing movies")
struct DetailsTests {
    @Test("details 550 shows Fight Club's title, tagline, runtime, genres and rating")
    func fightClub() async throws {
        try await withFixtureServer { server in
            let run = await movies(["details", "550"], server: server)

            #expect(run.status == .success)
            #expect(run.lines.prefix(2) == ["Fight Club (1999)", "“Mischief. Mayhem. Soap.”"])
            #expect(run.lines.contains("Released: 1999-10-15"))
            #expect(run.lines.contains("Runtime:  2h 19m"))
            #expect(run.lines.contains("Genres:   Drama"))
            #expect(run.lines.contains("Rating:   8.4 / 10 from 30,512 votes"))
            #expect(run.lines.joined(separator: " ").contains("start an underground fight club"))
            #expect(await server.requests.first?.path == "/3/movie/550")
        }
    }

    @Test("A movie with an empty release date and no runtime is shown as unknown")
    func unreleasedMovie() async throws {
        try await withFixtureServer { server in
            let run = await movies(["details", "1000001"], server: server)

            #expect(run.status == .success)
            #expect(run.lines.first == "Heat Signature (—)")
            #expect(run.lines.contains("Released: not yet announced"))
            #expect(run.lines.contains("Runtime:  unknown"))
        }
    }

    @Test("videos 550 lists YouTube links")
    func videos() async throws {
        try await withFixtureServer { server in
            let run = await movies(["videos", "550"], server: server)

            #expect(run.status == .success)
            let trailer = try #require(run.lines.first { $0.hasPrefix("Trailer") })
            #expect(trailer.contains("Fight Club | Official Trailer"))
            #expect(trailer.contains(/https:\/\/www\.youtube\.com\/watch\?v=[A-Za-z0-9_-]{11}$/))
            #expect(await server.requests.first?.path == "/3/movie/550/videos")
        }
    }

    @Test("An unknown id prints TMDB's 404 on one line of stderr and exits 1", arguments: [["details"], ["videos"], ["recommendations"]])
    func unknownID(subcommand: [String]) async throws {
        try await withFixtureServer { server in
            let run = await movies(subcommand + ["999999"], server: server)

            #expect(run.status == .failure)
            #expect(run.status.rawValue != 0)
            #expect(run.lines.isEmpty)
            #expect(
                run.errorLines == [
                    #"movies: The server answered 404 Not Found: {"status_code":34,"status_message":"The resource you requested could not be found.","success":false}"#
                ]
            )
        }
    }
}
