import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `movies` command: parses the arguments, picks the API, makes the call and prints the result.
///
/// Everything it needs comes in through ``init(output:environment:session:startEmbeddedBackend:)``,
/// so tests run it in-process exactly as the program does.
public struct MoviesCommand: Sendable {
    /// Where results and failures are written.
    public let output: OutputSink
    /// The process environment; `TMDB_API_KEY` is read from it.
    public let environment: [String: String]
    /// The session every request goes through.
    public let session: URLSession
    /// Starts the embedded server, for runs without `--base-url` or `--env`.
    public let startEmbeddedBackend: @Sendable () async throws -> EmbeddedBackend

    /// Creates the command.
    /// - Parameters:
    ///   - output: Where results and failures are written; the standard streams by default.
    ///   - environment: The process environment, for `TMDB_API_KEY`; empty by default.
    ///   - session: The session to send through; one from ``MovieClient/defaultConfiguration()`` by default.
    ///   - startEmbeddedBackend: Starts the embedded server; called only when it is needed.
    public init(
        output: OutputSink = .standard,
        environment: [String: String] = [:],
        session: URLSession = NetworkClient.makeSession(configuration: MovieClient.defaultConfiguration()),
        startEmbeddedBackend: @escaping @Sendable () async throws -> EmbeddedBackend
    ) {
        self.output = output
        self.environment = environment
        self.session = session
        self.startEmbeddedBackend = startEmbeddedBackend
    }

    /// Runs the command line `arguments` (without the program name).
    /// - Returns: The exit status: ``ExitCode/success``, ``ExitCode/failure`` after a failed call,
    ///   or ``ExitCode/usage`` for a command line that cannot run.
    public func run(_ arguments: [String]) async -> ExitCode {
        let invocation: Invocation
        do throws(UsageError) {
            invocation = try CommandLineParser.parse(arguments)
        } catch {
            return usageFailure(error)
        }
        guard case .call(let call) = invocation.action else {
            Usage.text.split(separator: "\n", omittingEmptySubsequences: false).forEach { output.writeLine(String($0)) }
            return .success
        }
        switch invocation.target {
        case .remote(let apiEnvironment):
            guard let apiKey = invocation.apiKey ?? environment["TMDB_API_KEY"], !apiKey.isEmpty else {
                return usageFailure(UsageError("an API key is needed with --base-url or --env: pass --api-key or set TMDB_API_KEY"))
            }
            return await perform(call, with: MovieClient(session: session, environment: apiEnvironment, apiKey: apiKey))
        case .embedded:
            let backend: EmbeddedBackend
            do {
                backend = try await startEmbeddedBackend()
            } catch {
                output.writeErrorLine("movies: could not start the embedded server: \(error)")
                return .failure
            }
            let apiKey = invocation.apiKey ?? backend.apiKey
            let client = MovieClient(session: session, environment: .custom(backend.baseURL), apiKey: apiKey)
            let status = await perform(call, with: client)
            await backend.stop()
            return status
        }
    }

    /// Sends `call`, prints the result, and reports any failure on one line.
    private func perform(_ call: MovieAPI, with client: MovieClient) async -> ExitCode {
        do throws(APIError) {
            try await render(call, with: client).forEach(output.writeLine)
            return .success
        } catch {
            output.writeErrorLine("movies: \(redacting(client.apiKey, in: error.description))")
            return .failure
        }
    }

    /// Makes the call and formats what comes back.
    private func render(_ call: MovieAPI, with client: MovieClient) async throws(APIError) -> [String] {
        switch call {
        case .popular(let page):
            MovieFormatter.lines(for: try await client.popular(page: page), title: "Popular movies")
        case .nowPlaying(let page):
            MovieFormatter.lines(for: try await client.nowPlaying(page: page), title: "Now playing")
        case .topRated(let page):
            MovieFormatter.lines(for: try await client.topRated(page: page), title: "Top rated")
        case .details(let id):
            MovieFormatter.lines(for: try await client.details(id: id))
        case .recommendations(let id):
            MovieFormatter.lines(for: try await client.recommendations(id: id), title: "Recommendations for movie \(id)")
        case .videos(let id):
            MovieFormatter.lines(for: try await client.videos(id: id))
        case .search(let query, let page):
            MovieFormatter.lines(for: try await client.search(query: query, page: page), title: "Search results for “\(query)”")
        case .rate(let id, let value):
            [MovieFormatter.line(forRating: value, movieID: id, status: try await client.rate(id: id, value: value))]
        }
    }

    private func usageFailure(_ error: UsageError) -> ExitCode {
        output.writeErrorLine("movies: \(error.message) (see 'movies --help')")
        return .usage
    }

    /// `text` with the API key replaced by `***`, since failing URLs in error messages carry it.
    private func redacting(_ apiKey: String, in text: String) -> String {
        guard apiKey.count >= 4 else { return text }
        let encoded = apiKey.addingPercentEncoding(withAllowedCharacters: .urlUnreserved) ?? apiKey
        return text.replacingOccurrences(of: encoded, with: "***").replacingOccurrences(of: apiKey, with: "***")
    }
}
