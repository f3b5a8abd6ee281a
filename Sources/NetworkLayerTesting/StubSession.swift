import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Gives you a `URLSession` that answers from canned responses instead of the network, and records what it was sent.
///
/// Each `StubSession` is its own registry: stubs registered on one never answer requests of
/// another, so tests running in parallel in one process stay isolated.
///
/// ```swift
/// let stubs = StubSession()
/// stubs.register(.get, "/3/movie/popular", .json(#"{"page": 1, "results": []}"#))
/// let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
/// let page = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
/// #expect(stubs.requests.first?.query == "page=1")
/// ```
///
/// Routes match on method and the URL's percent-decoded path, whatever the host. A route
/// registered several times answers with its responses in order and repeats the last one.
/// A route can also answer from a closure that sees each request (``register(_:_:respond:)``).
/// A request no route matches fails with `URLError(.resourceUnavailable)` naming it.
public final class StubSession: Sendable {
    /// The session to hand to the code under test; every request it sends is answered here.
    public let session: URLSession

    private let id: UInt64
    let routes = StubRoutes()

    /// Creates an empty stub set and its session.
    /// - Parameter configuration: The configuration to build on; `.ephemeral` by default. A copy
    ///   is used, with its protocol classes replaced and its cache removed.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        id = StubRegistry.nextID()
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.protocolClasses = [StubProtocolClass.make(for: id)]
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        StubRegistry.add(self, id: id)
    }

    deinit {
        StubRegistry.remove(id: id)
    }

    /// Answers requests for `method` and `path` with `response`; registering a route again queues another response.
    /// - Parameters:
    ///   - method: The method to match; `.get` by default.
    ///   - path: The URL path to match, percent-decoded, for example `"/3/movie/popular"`.
    ///   - response: The answer.
    public func register(_ method: HTTPMethod = .get, _ path: String, _ response: StubResponse) {
        routes.register(method, path) { _ in response }
    }

    /// Answers requests for `method` and `path` by calling `respond` with each one, for answers that
    /// depend on the request (a header, the body); it queues like ``register(_:_:_:)``.
    ///
    /// ```swift
    /// stubs.register(.get, "/me") { request in
    ///     request.headers["Authorization"] == "Bearer fresh" ? .json(#"{"id":1}"#) : .status(401)
    /// }
    /// ```
    /// - Parameters:
    ///   - method: The method to match; `.get` by default.
    ///   - path: The URL path to match, percent-decoded.
    ///   - respond: Returns the answer; it is called on a `URLSession` thread, once per request.
    public func register(_ method: HTTPMethod = .get, _ path: String, respond: @escaping @Sendable (RecordedRequest) -> StubResponse) {
        routes.register(method, path, respond: respond)
    }

    /// Every request received so far, in arrival order, unmatched ones included.
    public var requests: [RecordedRequest] {
        routes.requests
    }

    /// The requests received for one method and path.
    public func requests(_ method: HTTPMethod, _ path: String) -> [RecordedRequest] {
        routes.requests(method, path)
    }

    /// Records `request` and picks its answer.
    func respond(to request: URLRequest) -> StubResponse {
        routes.respond(to: RecordedRequest(request))
    }
}

/// The live stub sessions by ID, so a protocol instance created by `URLSession` can find its own.
enum StubRegistry {
    private struct Entry {
        weak var session: StubSession?
    }

    private static let entries = Locked((nextID: UInt64(1), sessions: [UInt64: Entry]()))

    static func nextID() -> UInt64 {
        entries.withLock { entries in
            defer { entries.nextID += 1 }
            return entries.nextID
        }
    }

    static func add(_ session: StubSession, id: UInt64) {
        entries.withLock { $0.sessions[id] = Entry(session: session) }
    }

    static func remove(id: UInt64) {
        _ = entries.withLock { $0.sessions.removeValue(forKey: id) }
    }

    static func session(id: UInt64) -> StubSession? {
        entries.withLock { $0.sessions[id]?.session }
    }
}
