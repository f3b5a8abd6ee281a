import FixtureServer
import MoviesKit
import Testing

@Suite("API key and target")
struct APIKeyTests {
    @Test("The key is sent as the api_key query parameter")
    func keyInQuery() async throws {
        try await withFixtureServer { server in
            _ = await movies(["details", "949"], server: server)

            let request = try #require(await server.requests.first)
            #expect(request.query["api_key"] == FixtureServer.apiKey)
            #expect(request.header("Authorization") == nil)
        }
    }

    @Test("A wrong key gets TMDB's 401 on one line of stderr")
    func wrongKey() async throws {
        try await withFixtureServer { server in
            let run = await movies(["--base-url", server.baseURL, "--api-key", "wrong-key", "popular"], server: server)

            #expect(run.status == .failure)
            #expect(run.lines.isEmpty)
            #expect(
                run.errorLines == [
                    #"movies: The server answered 401 Unauthorized: {"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#
                ]
            )
            #expect(await server.requests.first?.query["api_key"] == "wrong-key")
        }
    }

    @Test("Transport errors name the failing URL with the key redacted")
    func keyIsRedacted() async throws {
        let run = await movies(["--base-url", "http://127.0.0.1:1/3", "--api-key", "secret-key-123"]) { try NoServerExpected().start() }

        #expect(run.status == .failure)
        #expect(run.errors.contains("Request failed: could not connect to the server"))
        #expect(run.errors.contains("api_key=<redacted>&page=1"))
        #expect(!run.errors.contains("secret-key-123"))
    }

    @Test("--api-key overrides the embedded server's key too")
    func wrongKeyForEmbeddedServer() async throws {
        try await withFixtureServer { server in
            let run = await movies(["--api-key", "nope-nope"], server: server)

            #expect(run.status == .failure)
            #expect(run.errors.contains("401 Unauthorized"))
        }
    }

    @Test("--base-url sends requests there without starting the embedded server; TMDB_API_KEY supplies the key")
    func baseURLSkipsEmbeddedServer() async throws {
        try await withFixtureServer { server in
            let embedded = NoServerExpected()
            let environment = ["TMDB_API_KEY": FixtureServer.apiKey]
            let run = await movies(["details", "550", "--base-url=\(server.baseURL)"], environment: environment) {
                try embedded.start()
            }

            #expect(run.status == .success)
            #expect(run.lines.first == "Fight Club (1999)")
            #expect(!embedded.wasStarted)
        }
    }

    @Test("--base-url or --env without any key is a usage error, before anything is sent")
    func remoteNeedsKey() async throws {
        let embedded = NoServerExpected()
        let run = await movies(["--env", "production"]) { try embedded.start() }

        #expect(run.status == .usage)
        #expect(run.errors.contains("an API key is needed"))
        #expect(!embedded.wasStarted)
    }

    @Test("Without --base-url the command starts the embedded server, uses it, and stops it")
    func embeddedServerLifecycle() async throws {
        let started = LineCollector()
        let run = await movies(["details", "550"]) {
            let server = try await FixtureServer.start()
            started.append(server.baseURL)
            return EmbeddedBackend(baseURL: server.baseURL, apiKey: FixtureServer.apiKey) {
                await server.stop()
                started.append("stopped")
            }
        }

        #expect(run.status == .success)
        #expect(run.lines.first == "Fight Club (1999)")
        #expect(started.all.count == 2)
        #expect(started.all.last == "stopped")
    }
}
