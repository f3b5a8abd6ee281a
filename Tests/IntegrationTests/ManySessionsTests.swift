import Foundation
import NetworkLayer
import TestSupport
import Testing

/// Hundreds of clients, each with a session of its own, busy at once over URLSession.
///
/// On Linux every call that creates, resumes or cancels a task waits for its session's work queue,
/// which needs a thread of its own to answer. Were those waits on a thread per session, a few
/// hundred busy sessions would use up libdispatch's threads (255) and hang the process, so the
/// suite runs in the load pass (`NETWORKLAYER_LOAD=1`), alone, one test at a time.
@Suite(
    "Load: hundreds of URLSession sessions at once", .serialized, .fileserver, .load,
    .enabled(if: TransportKind.all.contains(.urlSession), "a URLSession transport's sessions"))
struct ManySessionsTests {
    /// Clients at once: well past libdispatch's thread limit.
    static let count = 400
    /// A burst that takes longer has hung: it fails instead of stalling the run.
    static let wallTimeout: Double = 60

    /// A response that takes a moment (two lines 0.2 s apart), so that every request is in flight at once.
    private static func slowLines() throws -> HTTPBinEndpoint {
        try FileServer.endpoint("/lines", query: ["count": 2, "interval": 0.2])
    }

    @Test("400 clients, each with a session of its own, send at once and all get their answers")
    func sendAtOnce() async throws {
        let endpoint = try Self.slowLines()
        let clients = (0..<Self.count).map { _ in NetworkClient() }
        let statuses = try await withWallTimeout(seconds: Self.wallTimeout) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for client in clients {
                    group.addTask { try await client.response(for: endpoint).statusCode }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(statuses == Array(repeating: 200, count: Self.count))
    }

    @Test("400 sessions cancelled at random moments each end answered or cancelled, and the next call works")
    func cancelledAtRandom() async throws {
        let endpoint = try Self.slowLines()
        let clients = (0..<Self.count).map { _ in NetworkClient() }
        let outcomes = try await withWallTimeout(seconds: Self.wallTimeout) {
            await withTaskGroup(of: Result<Int, any Error>.self) { group in
                for client in clients {
                    let call = Task { try await client.response(for: endpoint).statusCode }
                    group.addTask {
                        try? await Task.sleep(nanoseconds: UInt64.random(in: 0..<300_000_000))
                        call.cancel()
                        return await call.result
                    }
                }
                return await group.reduce(into: [Result<Int, any Error>]()) { $0.append($1) }
            }
        }
        #expect(outcomes.count == Self.count)
        #expect(outcomes.allSatisfy { outcome in if case .failure(let error) = outcome { error as? APIError == .cancelled } else { true } })
        #expect(outcomes.contains { if case .failure = $0 { true } else { false } }, "some were cancelled in flight")
        #expect(try await NetworkClient().response(for: endpoint).statusCode == 200)
    }
}
