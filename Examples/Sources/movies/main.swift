import FixtureServer
import Foundation
import MoviesKit

// The `movies` program: MoviesKit does the work; this file only wires it to the process and to
// the fixture server, which is started for runs that name no --base-url or --env.
let command = MoviesCommand(environment: ProcessInfo.processInfo.environment) {
    let server = try await FixtureServer.start()
    return EmbeddedBackend(baseURL: server.baseURL, apiKey: FixtureServer.apiKey, stop: { await server.stop() })
}
let status = await command.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
