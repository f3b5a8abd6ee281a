import FlyingFox
import Foundation
import MoviesKit
import Testing

@Suite("Failures a user can act on")
struct FailureTests {
    @Test("A server that never answers: the timeout names the URL and the time, and --timeout sets it")
    func silentServer() async throws {
        let server = try await OddServer.silent()
        let run = await movies(["popular", "--base-url", server.baseURL, "--api-key", "k3y-k3y", "--timeout", "0.5"]) {
            try NoServerExpected().start()
        }
        await server.stop()
        #expect(run.status == .failure)
        #expect(run.lines.isEmpty)
        #expect(
            run.errorLines == [
                "movies: no answer from \(server.baseURL)/movie/popular?api_key=***&page=1 within 0.5 s; wait longer with --timeout <seconds>"
            ])
    }

    @Test("An HTML error page is shown as its status, content type, size and a short excerpt on one line")
    func htmlErrorPage() async throws {
        let page =
            "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n" + String(repeating: "<p>upstream   down</p>\n", count: 200)
            + "</body></html>"
        let server = try await OddServer {
            HTTPResponse(statusCode: .badGateway, headers: [.contentType: "text/html; charset=utf-8"], body: Data(page.utf8))
        }
        let run = await movies(["popular", "--base-url", server.baseURL, "--api-key", "k3y-k3y"]) { try NoServerExpected().start() }
        await server.stop()
        #expect(run.status == .failure)
        #expect(
            run.errorLines == [
                "movies: The server answered 502 Bad Gateway with text/html; charset=utf-8, \(page.utf8.count) bytes: "
                    + "<html> <head><title>502 Bad Gateway</title></head> <body> <p>upstream down</p> <…"
            ])
    }

    @Test("A page past the last is an error, not \"page 2 of 1\"")
    func pageBeyondLast() async throws {
        try await withFixtureServer { server in
            let run = await movies(["search", "heat", "--page", "2"], server: server)
            #expect(run.status == .failure)
            #expect(run.status.rawValue == 1)
            #expect(run.lines.isEmpty)
            #expect(run.errorLines == ["movies: there is no page 2; the last page of Search results for “heat” is 1"])
        }
    }

    @Test("--timeout takes a number of seconds above 0", arguments: ["0", "-1", "soon", "nan", "inf", "3601"])
    func badTimeout(text: String) async {
        let run = await movies(["popular", "--timeout", text]) { try NoServerExpected().start() }
        #expect(run.status == .usage)
        #expect(
            run.errorLines == [
                "movies: --timeout must be a number of seconds above 0 and up to 3600, such as 10 or 2.5, got '\(text)' (see 'movies --help')"
            ])
    }
}
