import Foundation
import NetworkLayer
import Testing

@Suite("Cancellation racing completion")
struct CancellationRaceTests {
    /// On Linux, cancelling `data(for:)` calls while their connections are being refused hung
    /// the process in most runs; every request here must still end, cancelled or refused.
    @Test("Requests cancelled as they start, racing a refused connection, all end")
    func cancelRacingRefusal() async throws {
        let server = try SilentServer()
        let base = server.baseURL
        server.stop()
        // A watchdog rather than `.timeLimit`, which needs macOS 13 / iOS 16.
        let finished = await withWatchdog(seconds: 60) { await Self.rounds(base: base) }
        #expect(finished == true)
    }

    private static func rounds(base: String) async -> Bool {
        let client = NetworkClient()
        for round in 0..<30 {
            let results = await withTaskGroup(of: APIError?.self) { group in
                for index in 0..<100 {
                    group.addTask { await client.fetch(TestEndpoint(base: base, path: "/\(index)"), as: Empty.self).failure }
                }
                // From "before any starts" to "some have failed already": a spread of races.
                try? await Task.sleep(nanoseconds: UInt64(round) * 100_000)
                group.cancelAll()
                return await group.reduce(into: [APIError?]()) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(results.allSatisfy { $0 == .cancelled || $0?.isConnectionRefused == true })
        }
        return true
    }
}

extension APIError {
    var isConnectionRefused: Bool {
        if case .requestFailed(let error) = self { error.code == .cannotConnectToHost } else { false }
    }
}
