import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server that holds every response until the test opens its gate, then answers with the request's
/// `Authorization` field as text, `none` without one.
private final class GatedServer: Sendable {
    let server: ScriptedServer
    private let isOpen = Locked(false)
    private let read = Locked(0)

    init() throws {
        let isOpen = self.isOpen
        let read = self.read
        server = try ScriptedServer { connection in
            read.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(30)
            while !isOpen.withLock({ $0 }), Date() < deadline { usleep(1000) }
            let body = Data((connection.headers["authorization"] ?? "none").utf8)
            connection.writeHead(headers: ["Content-Length": "\(body.count)", "Content-Type": "text/plain"])
            connection.write(body)
        }
    }

    func open() { isOpen.withLock { $0 = true } }

    /// The requests the server has read so far: a connection can be accepted before its request is
    /// written, and a request cancelled then leaves the connection to the next.
    var requestsRead: Int { read.withLock { $0 } }

    /// A server, a de-duplicator and a client over `transport` with it.
    static func start(over transport: TransportKind) throws -> (GatedServer, Deduplicator, NetworkClient) {
        let deduplicator = Deduplicator()
        return (try GatedServer(), deduplicator, transport.makeClient(interceptors: [deduplicator]))
    }

    /// Sends `request` once, and once it reached the server, 49 times more, returning when those wait for the first.
    func leaderAndWaiters(
        _ request: URLRequest, through client: NetworkClient, _ deduplicator: Deduplicator
    ) async throws -> (leader: Task<String, any Error>, waiters: [Task<String, any Error>]) {
        let leader = Task { try await client.send(with: request, as: String.self) }
        try await waitUntil { requestsRead == 1 }
        let waiters = (0..<49).map { _ in Task { try await client.send(with: request, as: String.self) } }
        try await waitUntil { deduplicator.waiterCount == 49 }
        return (leader, waiters)
    }

    func request(authorization: String? = nil) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: server.baseURL + "/items")))
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        return request
    }
}

/// Every byte of `stream`.
private func readAll(_ stream: ResponseStream) async throws -> Data {
    var data = Data()
    for try await chunk in stream { data += chunk }
    return data
}

/// Waits (in short steps, up to 30 seconds) until `condition` holds.
private func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(30)
    while !condition(), Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
    #expect(condition())
}

@Suite("De-duplication of identical requests in flight")
struct DeduplicatorTests {
    @Test("Fifty identical GETs at once reach the server once, and each gets the answer", arguments: TransportKind.all)
    func fiftyOnce(transport: TransportKind) async throws {
        let (server, deduplicator, client) = try GatedServer.start(over: transport)
        defer { server.server.stop() }
        let request = try server.request()
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await client.send(with: request, as: String.self) } }
            try await waitUntil { deduplicator.waiterCount == 49 }
            server.open()
            let answers = try await group.reduce(into: []) { $0.append($1) }
            #expect(answers == Array(repeating: "none", count: 50))
        }
        #expect(server.requestsRead == 1)
    }

    @Test("Cancelling one waiter leaves the 49 others their answer, from one request", arguments: TransportKind.all)
    func cancelWaiter(transport: TransportKind) async throws {
        let (server, deduplicator, client) = try GatedServer.start(over: transport)
        defer { server.server.stop() }
        let request = try server.request()
        let (leader, waiters) = try await server.leaderAndWaiters(request, through: client, deduplicator)
        waiters[7].cancel()
        await #expect(throws: APIError.cancelled) { try await waiters[7].value }
        server.open()
        #expect(try await leader.value == "none")
        for (index, waiter) in waiters.enumerated() where index != 7 { #expect(try await waiter.value == "none") }
        #expect(server.requestsRead == 1)
    }

    @Test(
        "Cancelling the caller whose request is on the wire leaves the 49 others their answer, sent again once",
        arguments: TransportKind.all)
    func cancelLeader(transport: TransportKind) async throws {
        let (server, deduplicator, client) = try GatedServer.start(over: transport)
        defer { server.server.stop() }
        let request = try server.request()
        let (leader, waiters) = try await server.leaderAndWaiters(request, through: client, deduplicator)
        leader.cancel()
        await #expect(throws: APIError.cancelled) { try await leader.value }
        try await waitUntil { server.requestsRead == 2 }
        server.open()
        for waiter in waiters { #expect(try await waiter.value == "none") }
        #expect(server.requestsRead == 2)
    }

    @Test("Requests with different credentials are not merged: each user gets the answer to its own", arguments: TransportKind.all)
    func differentCredentials(transport: TransportKind) async throws {
        let (server, deduplicator, client) = try GatedServer.start(over: transport)
        defer { server.server.stop() }
        let alice = try server.request(authorization: "Bearer alice")
        let bob = try server.request(authorization: "Bearer bob")
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<10 {
                let request = index.isMultiple(of: 2) ? alice : bob
                group.addTask {
                    (request.value(forHTTPHeaderField: "Authorization") ?? "", try await client.send(with: request, as: String.self))
                }
            }
            try await waitUntil { deduplicator.waiterCount == 8 }
            server.open()
            for try await (sent, answer) in group { #expect(sent == answer) }
        }
        #expect(server.requestsRead == 2)
    }

    @Test("A streamed body is not shared: a request that joined it sends its own once the head is in", arguments: TransportKind.all)
    func streamsPassThrough(transport: TransportKind) async throws {
        let (server, deduplicator, client) = try GatedServer.start(over: transport)
        defer { server.server.stop() }
        let request = try server.request()
        let first = Task { try await readAll(client.stream(with: request)) }
        try await waitUntil { server.requestsRead == 1 }
        let second = Task { try await readAll(client.stream(with: request)) }
        try await waitUntil { deduplicator.waiterCount == 1 }
        server.open()
        #expect(try await first.value == Data("none".utf8))
        #expect(try await second.value == Data("none".utf8))
        #expect(server.requestsRead == 2)
    }
}
