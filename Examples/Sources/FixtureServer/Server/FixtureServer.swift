import FlyingFox
import FlyingSocks
import Foundation

/// An HTTP server on 127.0.0.1 that answers like TMDB's v3 API from built-in fixtures.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// defer { Task { await server.stop() } }
/// // send requests to server.baseURL with api_key=FixtureServer.apiKey
/// ```
///
/// It listens on a port the system picks, so any number of servers can run side by side, and it
/// records every request for tests to inspect.
public final class FixtureServer: Sendable {
    /// The API key the server accepts; anything else gets TMDB's 401.
    public static let apiKey = "fixture-api-key-0123456789abcdef"

    /// The port the server listens on.
    public let port: UInt16
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let log: RequestLog

    /// The base URL for clients, with TMDB's version prefix: `http://127.0.0.1:<port>/3`.
    public var baseURL: String { "http://127.0.0.1:\(port)/3" }

    /// Every request received so far, in order.
    public var requests: [RecordedRequest] {
        get async { await log.requests }
    }

    private init(port: UInt16, server: HTTPServer, task: Task<Void, any Error>, log: RequestLog) {
        self.port = port
        self.server = server
        self.task = task
        self.log = log
    }

    /// Starts a server on 127.0.0.1 at a free port and returns once it accepts connections.
    /// - Parameter apiKey: The key to accept; ``apiKey`` by default.
    /// - Throws: When the socket cannot be bound or the server does not start listening within 5 seconds.
    public static func start(apiKey: String = FixtureServer.apiKey) async throws -> FixtureServer {
        let log = RequestLog()
        let router = FixtureRouter(apiKey: apiKey, catalog: FixtureCatalog())
        // Port 0 asks the system for a free port; FlyingFox reports it through `listeningAddress`.
        let handler = ClosureHTTPHandler { request in
            let recorded = try await RecordedRequest(request)
            await log.append(recorded)
            return HTTPResponse(router.respond(to: recorded))
        }
        let server = HTTPServer(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0), logger: .disabled, handler: handler)
        let task = Task { try await server.run() }
        do {
            try await server.waitUntilListening()
            guard case .ip4(_, let port) = await server.listeningAddress else {
                throw StartError("the server is listening, but not on an IPv4 address")
            }
            return FixtureServer(port: port, server: server, task: task, log: log)
        } catch {
            task.cancel()
            throw error
        }
    }

    /// Stops listening and closes every connection at once, without waiting for idle keep-alive
    /// connections (a client's session holds one open); call it once the last response has arrived.
    public func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }

    /// Why the server could not start.
    struct StartError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension RecordedRequest {
    /// Reads FlyingFox's request, body included.
    init(_ request: HTTPRequest) async throws {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            headers[name.rawValue.lowercased()] = value
        }
        var query: [String: String] = [:]
        for item in request.query {
            query[item.name] = item.value
        }
        self.init(method: request.method.rawValue, path: request.path, query: query, headers: headers, body: try await request.bodyData)
    }
}

extension HTTPResponse {
    /// FlyingFox's response for a fixture answer, typed as TMDB types it.
    init(_ response: FixtureResponse) {
        let known: [HTTPStatusCode] = [.ok, .created, .badRequest, .unauthorized, .notFound, .methodNotAllowed, .unsupportedMediaType]
        self.init(
            statusCode: known.first { $0.code == response.statusCode } ?? HTTPStatusCode(response.statusCode, phrase: "Status"),
            headers: [.contentType: "application/json;charset=utf-8"],
            body: response.body
        )
    }
}
