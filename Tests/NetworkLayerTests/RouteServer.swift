import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback server that answers each path from a table of routes, and records every request it
/// got: its path (with the query) and its headers, names lowercased. A path without a route answers
/// `404`.
final class RouteServer: Sendable {
    /// An answer: a status, its headers and a body (its `Content-Length` is added).
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body = ""
    }

    /// A request as the server got it.
    struct Received: Sendable {
        let path: String
        let headers: [String: String]
    }

    /// Every request received, in order.
    let received = LockedArray<Received>()
    private let server: ScriptedServer

    /// Starts a server whose `route` answers each request, given its path and headers.
    init(route: @escaping @Sendable (_ path: String, _ headers: [String: String]) -> Answer) throws {
        let received = received
        server = try ScriptedServer { connection in
            let path = String(connection.requestLine.split(separator: " ").dropFirst().first ?? "")
            received.append(Received(path: path, headers: connection.headers))
            let answer = route(path, connection.headers)
            var headers = answer.headers
            headers["Content-Length"] = String(answer.body.utf8.count)
            connection.writeHead(status: answer.status, headers: headers)
            connection.write(Data(answer.body.utf8))
        }
    }

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { server.baseURL }

    /// The paths requested, in order.
    var paths: [String] { received.elements.map(\.path) }

    /// A `GET` request for `path` on this server.
    func request(_ path: String) throws -> URLRequest {
        guard let url = URL(string: baseURL + path) else { throw URLError(.badURL) }
        return URLRequest(url: url)
    }

    /// Stops listening.
    func stop() {
        server.stop()
    }
}
