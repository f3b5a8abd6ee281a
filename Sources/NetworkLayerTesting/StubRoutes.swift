import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The routes, answers and recorded requests of one stub, shared by ``StubSession`` and ``StubTransport``.
///
/// Routes match on method and the URL's percent-decoded path, whatever the host. A route registered
/// several times answers with its responses in order and repeats the last one. A request no route
/// matches fails with `URLError(.resourceUnavailable)` naming it and the registered routes.
final class StubRoutes: Sendable {
    typealias Responder = @Sendable (RecordedRequest) -> StubResponse

    private struct State {
        var routes: [Route: [Responder]] = [:]
        var served: [Route: Int] = [:]
        var requests: [RecordedRequest] = []
    }

    private struct Route: Hashable {
        let method: HTTPMethod
        let path: String
    }

    private let state = Locked(State())

    func register(_ method: HTTPMethod, _ path: String, respond: @escaping Responder) {
        let route = Route(method: method, path: Self.normalized(path))
        state.withLock { $0.routes[route, default: []].append(respond) }
    }

    var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    func requests(_ method: HTTPMethod, _ path: String) -> [RecordedRequest] {
        let path = Self.normalized(path)
        return requests.filter { $0.method == method && $0.path == path }
    }

    /// Records `recorded` and picks its answer.
    func respond(to recorded: RecordedRequest) -> StubResponse {
        let route = Route(method: recorded.method, path: recorded.path)
        let responder = state.withLock { state -> Result<Responder, URLError> in
            state.requests.append(recorded)
            guard let responders = state.routes[route], !responders.isEmpty else {
                let known = state.routes.keys.map { "\($0.method) \($0.path)" }.sorted().joined(separator: ", ")
                return .failure(
                    URLError(
                        .resourceUnavailable,
                        userInfo: [NSLocalizedDescriptionKey: "No stub for \(route.method) \(route.path); registered: [\(known)]"]
                    )
                )
            }
            let index = state.served[route, default: 0]
            state.served[route] = index + 1
            return .success(responders[min(index, responders.count - 1)])
        }
        // Called outside the lock, so a responder may use the stub itself.
        switch responder {
        case .success(let respond): return respond(recorded)
        case .failure(let error): return .failure(error)
        }
    }

    private static func normalized(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }
}
