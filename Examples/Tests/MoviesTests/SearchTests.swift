import FixtureServer
import MoviesKit
import Testing

@Suite("Search")
struct SearchTests {
    @Test("search heat finds Heat (1995) and only titles containing 'heat'")
    func heat() async throws {
        try await withFixtureServer { server in
            let run = await movies(["search", "heat"], server: server)

            #expect(run.status == .success)
            #expect(run.lines.first == "Search results for “heat” · page 1 of 1 · 4 results")
            #expect(run.row(titled: "Heat") == ["949", "Heat", "1995", "7.9"])
            #expect(run.row(titled: "The Heat") == ["136795", "The Heat", "2013", "6.6"])
            #expect(run.row(titled: "Fight Club") == nil)
            let request = try #require(await server.requests.first)
            #expect(request.path == "/3/search/movie")
            #expect(request.query["query"] == "heat")
        }
    }

    @Test("A query with spaces and accents reaches the server intact and matches case-insensitively")
    func spacesAndAccents() async throws {
        try await withFixtureServer { server in
            let run = await movies(["search", "LÉON: the"], server: server)

            #expect(run.row(titled: "Léon: The Professional") == ["101", "Léon: The Professional", "1994", "8.3"])
            #expect(await server.requests.first?.query["query"] == "LÉON: the")
        }
    }

    @Test("A query nothing matches says so")
    func noMatch() async throws {
        try await withFixtureServer { server in
            let run = await movies(["search", "zzzz"], server: server)

            #expect(run.status == .success)
            #expect(run.lines == ["Search results for “zzzz” · page 1 of 1 · 0 results", "", "No movies found."])
        }
    }
}
