import Foundation
import NetworkLayer
import TestSupport

/// A loopback API for the integrations' tests: `/notes/ID` answers a note, `/moved` redirects to
/// `/notes/1`, `/flaky` answers `503` once and then `200`, `/missing` `404`, `/cached` a body fresh
/// for an hour, `/slow` after 0.3 s, `/private` `401` unless it gets `Bearer fresh-token`; it records every request's headers.
struct ObservedServer: Sendable {
    let server: RouteServer

    init() throws {
        let flaky = Locked(0)
        server = try RouteServer { path, headers in
            let path = path.split(separator: "?").first.map(String.init) ?? path
            switch path {
            case "/moved": return .init(status: 302, headers: ["Location": "/notes/1"])
            case "/flaky":
                let calls = flaky.withLock { calls in
                    calls += 1
                    return calls
                }
                return calls == 1 ? .init(status: 503, headers: ["Retry-After": "0"]) : .init(status: 200, body: #"{"id":7}"#)
            case "/missing": return .init(status: 404, body: "no such note")
            case "/slow":
                Thread.sleep(forTimeInterval: 0.3)
                return .init(status: 200, body: #"{"id":6}"#)
            case "/private":
                return headers["authorization"] == "Bearer fresh-token" ? .init(status: 200, body: #"{"id":5}"#) : .init(status: 401)
            case "/cached": return .init(status: 200, headers: ["Cache-Control": "max-age=3600"], body: #"{"id":9}"#)
            default:
                guard path.hasPrefix("/notes/") else { return .init(status: 404) }
                return .init(status: 200, headers: ["Set-Cookie": "session=secret-cookie; Path=/"], body: #"{"id":1}"#)
            }
        }
    }

    var baseURL: String { server.baseURL }

    /// The server's port.
    var port: Int { URL(string: baseURL)?.port ?? 0 }

    /// An endpoint of `path` on this server, with its route `template`.
    func endpoint(_ path: String, template: String? = nil) -> TestEndpoint {
        var endpoint = TestEndpoint(base: baseURL, path: path)
        endpoint.urlTemplate = template
        return endpoint
    }

    /// The headers of every request received, in order.
    var headers: [[String: String]] { server.received.elements.map(\.headers) }
}

/// A note the server answers.
struct ObservedNote: Decodable, Sendable {
    let id: Int
}

extension TransportKind {
    /// A client over this transport with the configuration `configure` makes.
    func makeClient(configuring configure: (inout ClientConfiguration) -> Void) -> NetworkClient {
        var configuration = ClientConfiguration()
        configure(&configuration)
        return NetworkClient(transport: makeTransport(), configuration: configuration)
    }
}
