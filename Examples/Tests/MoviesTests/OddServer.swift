import FlyingFox
import FlyingSocks
import Foundation

/// A server on 127.0.0.1 that answers every request with `respond`, for what the fixture server
/// never does: stay silent, or answer with an HTML error page.
final class OddServer: Sendable {
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    let port: UInt16

    var baseURL: String { "http://127.0.0.1:\(port)/3" }

    init(respond: @escaping @Sendable () async throws -> HTTPResponse) async throws {
        let server = HTTPServer(
            address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0), logger: .disabled,
            handler: ClosureHTTPHandler { _ in try await respond() })
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port) = await server.listeningAddress else {
            task.cancel()
            throw CocoaError(.featureUnsupported)
        }
        self.server = server
        self.task = task
        self.port = port
    }

    /// A server that accepts requests and never answers.
    static func silent() async throws -> OddServer {
        try await OddServer {
            try await Task.sleep(nanoseconds: 600_000_000_000)
            return HTTPResponse(statusCode: .ok)
        }
    }

    func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }
}
