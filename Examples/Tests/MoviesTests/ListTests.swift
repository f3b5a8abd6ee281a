import FixtureServer
import MoviesKit
import Testing

@Suite("Movie lists")
struct ListTests {
    @Test("No subcommand shows page 1 of popular movies as a table")
    func defaultIsPopularPageOne() async throws {
        try await withFixtureServer { server in
            let run = await movies([], server: server)

            #expect(run.status == .success)
            #expect(run.errorLines.isEmpty)
            #expect(run.lines.first == "Popular movies · page 1 of 3 · 26 results")
            #expect(run.row(titled: "Dune: Part Two") == ["693134", "Dune: Part Two", "2024", "8.1"])
            #expect(run.row(titled: "Fight Club") == ["550", "Fight Club", "1999", "8.4"])
            #expect(run.row(titled: "The Shawshank Redemption") == ["278", "The Shawshank Redemption", "1994", "8.7"])
            #expect(run.row(titled: "Heat") == nil, "Heat is on page 2")
            let request = try #require(await server.requests.first)
            #expect(request.path == "/3/movie/popular")
            #expect(request.query["page"] == "1")
        }
    }

    @Test("popular --page 2 asks for page 2 and shows other movies")
    func popularPageTwo() async throws {
        try await withFixtureServer { server in
            let run = await movies(["popular", "--page", "2"], server: server)

            #expect(run.status == .success)
            #expect(run.lines.first == "Popular movies · page 2 of 3 · 26 results")
            #expect(run.row(titled: "Heat") == ["949", "Heat", "1995", "7.9"])
            #expect(run.row(titled: "The Godfather") == ["238", "The Godfather", "1972", "8.7"])
            #expect(run.row(titled: "Fight Club") == nil, "Fight Club is on page 1")
            #expect(await server.requests.first?.query["page"] == "2")
        }
    }

    @Test("The table's columns line up: every line is as wide, and years end in one column")
    func columnsAreAligned() async throws {
        try await withFixtureServer { server in
            let table = await movies(["popular", "--page=3"], server: server).tableLines

            #expect(table.count == 2 + 6, "header, rule and the 6 movies of the last page")
            #expect(Set(table.map(\.count)).count == 1, "right-aligned ratings end every line at one column")
            let yearColumns = table.dropFirst(2).compactMap { line in
                line.firstRange(of: #/  (\d{4}|—)  /#).map { line.distance(from: line.startIndex, to: $0.upperBound) }
            }
            #expect(yearColumns.count == 6)
            #expect(Set(yearColumns).count == 1)
        }
    }

    @Test("A movie without a release date or votes shows dashes, not a crash")
    func emptyReleaseDate() async throws {
        try await withFixtureServer { server in
            let run = await movies(["popular", "--page", "3"], server: server)

            #expect(run.status == .success)
            #expect(run.row(titled: "Heat Signature") == ["1000001", "Heat Signature", "—", "—"])
        }
    }

    @Test("now-playing and top-rated call their own endpoints")
    func otherLists() async throws {
        try await withFixtureServer { server in
            let nowPlaying = await movies(["now-playing"], server: server)
            let topRated = await movies(["top-rated"], server: server)

            #expect(nowPlaying.lines.first == "Now playing · page 1 of 1 · 7 results")
            #expect(nowPlaying.row(titled: "Oppenheimer") == ["872585", "Oppenheimer", "2023", "8.1"])
            #expect(topRated.lines.first?.hasPrefix("Top rated · page 1 of 3") == true)
            #expect(MoviesRun.cells(topRated.tableLines[2]) == ["278", "The Shawshank Redemption", "1994", "8.7"])
            #expect(await server.requests.map(\.path) == ["/3/movie/now_playing", "/3/movie/top_rated"])
        }
    }

    @Test("recommendations lists movies sharing a genre, not the movie itself")
    func recommendations() async throws {
        try await withFixtureServer { server in
            let run = await movies(["recommendations", "550"], server: server)

            #expect(run.status == .success)
            #expect(run.lines.first?.hasPrefix("Recommendations for movie 550") == true)
            #expect(run.row(titled: "The Shawshank Redemption") != nil)
            #expect(run.row(titled: "Fight Club") == nil)
            #expect(await server.requests.first?.path == "/3/movie/550/recommendations")
        }
    }
}
