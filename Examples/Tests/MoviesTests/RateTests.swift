import FixtureServer
import Foundation
import MoviesKit
import Testing

@Suite("Rating")
struct RateTests {
    @Test("rate 550 8.5 POSTs {\"value\":8.5} as JSON and reports TMDB's success")
    func rate() async throws {
        try await withFixtureServer { server in
            let run = await movies(["rate", "550", "8.5"], server: server)

            #expect(run.status == .success)
            #expect(run.lines == ["Rated movie 550: 8.5 / 10. TMDB says: Success."])
            let request = try #require(await server.requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/3/movie/550/rating")
            #expect(request.query["api_key"] == FixtureServer.apiKey)
            #expect(request.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(request.bodyText == #"{"value":8.5}"#)
        }
    }

    @Test("Whole-number ratings are sent as numbers too", arguments: ["10", "0.5", "7"])
    func wholeAndEdgeValues(value: String) async throws {
        try await withFixtureServer { server in
            let run = await movies(["rate", "550", value], server: server)

            #expect(run.status == .success)
            let body = try #require(await server.requests.first?.body)
            let sent = try JSONDecoder().decode([String: Double].self, from: body)
            #expect(sent == ["value": Double(value)])
        }
    }

    @Test("Rating a movie that does not exist fails with TMDB's 404")
    func unknownMovie() async throws {
        try await withFixtureServer { server in
            let run = await movies(["rate", "999999", "8"], server: server)

            #expect(run.status == .failure)
            #expect(run.errors.contains("404 Not Found"))
            #expect(run.errors.contains(#""status_code":34"#))
        }
    }
}
