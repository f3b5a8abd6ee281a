import FixtureServer
import Foundation
import MoviesKit
import NetworkLayer
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One session for every test, as an app keeps one: NetworkLayer advises against short-lived sessions.
let sharedSession = URLSessionTransport().session

/// What one run of the `movies` command printed and returned.
struct MoviesRun {
    let status: ExitCode
    /// Lines written to standard output.
    let lines: [String]
    /// Lines written to standard error.
    let errorLines: [String]

    var output: String { lines.joined(separator: "\n") }
    var errors: String { errorLines.joined(separator: "\n") }

    /// The cells of the table row whose title cell is `title`, split at the column gaps; `nil` if no row has it.
    func row(titled title: String) -> [String]? {
        lines.map(Self.cells).first { $0.count >= 2 && $0[1] == title }
    }

    /// The movie table's lines: the header (starting with `ID`), the rule and the rows.
    var tableLines: [String] {
        guard let header = lines.firstIndex(where: { Self.cells($0).first == "ID" }) else { return [] }
        return Array(lines[header...].prefix { !$0.isEmpty })
    }

    static func cells(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// Collects lines written from any task.
final class LineCollector: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var all: [String] { lines.withLock { $0 } }
}

/// Records whether the command asked for the embedded server, and refuses to start one.
final class NoServerExpected: Sendable {
    private let called = Mutex(false)

    var wasStarted: Bool { called.withLock { $0 } }

    func start() throws -> EmbeddedBackend {
        called.withLock { $0 = true }
        throw UnexpectedStart()
    }

    struct UnexpectedStart: Error {}
}

/// Runs `movies` in-process with `arguments`, its embedded backend being `server` (which the test stops).
func movies(_ arguments: [String], server: FixtureServer, environment: [String: String] = [:]) async -> MoviesRun {
    let backend = EmbeddedBackend(baseURL: server.baseURL, apiKey: FixtureServer.apiKey)
    return await movies(arguments, environment: environment) { backend }
}

/// Runs `movies` in-process with `arguments` and the given way of starting the embedded backend.
func movies(
    _ arguments: [String],
    environment: [String: String] = [:],
    startEmbeddedBackend: @escaping @Sendable () async throws -> EmbeddedBackend
) async -> MoviesRun {
    let output = LineCollector()
    let errors = LineCollector()
    let command = MoviesCommand(
        output: OutputSink(writeLine: output.append, writeErrorLine: errors.append),
        environment: environment,
        session: sharedSession,
        startEmbeddedBackend: startEmbeddedBackend
    )
    let status = await command.run(arguments)
    return MoviesRun(status: status, lines: output.all, errorLines: errors.all)
}

/// Starts a fixture server for the duration of `body`, then stops it.
func withFixtureServer(_ body: (FixtureServer) async throws -> Void) async throws {
    let server = try await FixtureServer.start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
