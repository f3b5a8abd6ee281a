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
    ///   - session: The session to send through; one from `URLSessionTransport.defaultConfiguration()` by default.
    ///   - startEmbeddedBackend: Starts the embedded server; called only when it is needed.
    public init(
        output: OutputSink = .standard,
        environment: [String: String] = [:],
        session: URLSession = URLSessionTransport().session,
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
            let client = MovieClient(
                session: session, environment: apiEnvironment, apiKey: apiKey, timeout: invocation.timeout ?? MovieClient.defaultTimeout)
            return await perform(call, with: client)
        case .embedded:
            let backend: EmbeddedBackend
            do {
                backend = try await startEmbeddedBackend()
            } catch {
                output.writeErrorLine("movies: could not start the embedded server: \(error)")
                return .failure
            }
            let apiKey = invocation.apiKey ?? backend.apiKey
            let client = MovieClient(
                session: session, environment: .custom(backend.baseURL), apiKey: apiKey,
                timeout: invocation.timeout ?? MovieClient.defaultTimeout)
            let status = await perform(call, with: client)
            await backend.stop()
            return status
        }
    }

    /// Sends `call`, prints the result, and reports any failure on one line.
    private func perform(_ call: MovieAPI, with client: MovieClient) async -> ExitCode {
        let message: String
        do {
            try await render(call, with: client).forEach(output.writeLine)
            return .success
        } catch let error as APIError {
            message = FailureMessage.text(for: error, call: call, client: client)
        } catch {
            message = "\(error)"
        }
        output.writeErrorLine("movies: \(redacting(client.apiKey, in: message))")
        return .failure
    }

    /// Makes the call and formats what comes back.
    /// - Throws: The call's ``APIError``, or ``NoSuchPage`` for a page past the last.
    private func render(_ call: MovieAPI, with client: MovieClient) async throws -> [String] {
        switch call {
        case .popular(let page):
            try lines(for: try await client.send(.popular(page: page)), title: "Popular movies")
        case .nowPlaying(let page):
            try lines(for: try await client.send(.nowPlaying(page: page)), title: "Now playing")
        case .topRated(let page):
            try lines(for: try await client.send(.topRated(page: page)), title: "Top rated")
        case .details(let id):
            MovieFormatter.lines(for: try await client.send(.details(id: id)))
        case .recommendations(let id):
            try lines(for: try await client.send(.recommendations(id: id)), title: "Recommendations for movie \(id)")
        case .videos(let id):
            MovieFormatter.lines(for: try await client.send(.videos(id: id)))
        case .search(let query, let page):
            try lines(for: try await client.send(.search(query: query, page: page)), title: "Search results for “\(query)”")
        case .rate(let id, let value):
            [MovieFormatter.line(forRating: value, movieID: id, status: try await client.send(.rate(id: id, value: value)))]
        }
    }

    /// The page's lines, or ``NoSuchPage`` when it is past the last page: TMDB answers such a page
    /// with no results, which would read as "page 2 of 1".
    private func lines(for page: MoviePage, title: String) throws(NoSuchPage) -> [String] {
        let last = max(page.totalPages, 1)
        guard page.page <= last else {
            throw NoSuchPage(description: "there is no page \(page.page); the last page of \(title) is \(last)")
        }
        return MovieFormatter.lines(for: page, title: title)
    }

    /// A page past the last one was asked for.
    struct NoSuchPage: Error, CustomStringConvertible {
        let description: String
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
