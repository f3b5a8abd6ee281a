import Foundation
import NetworkLayer
import TestSupport
import Testing

@Suite("Cancellation racing completion")
struct CancellationRaceTests {
    /// On Linux, cancelling `data(for:)` calls while their connections are being refused hung
    /// the process in most runs; every request here must still end, cancelled or refused.
    @Test("Requests cancelled as they start, racing a refused connection, all end", arguments: TransportKind.all)
    func cancelRacingRefusal(transport: TransportKind) async throws {
        let server = try SilentServer()
        let base = server.baseURL
        server.stop()
        // A watchdog rather than `.timeLimit`, which needs macOS 13 / iOS 16.
        let finished = await withWatchdog(seconds: 60) { await Self.rounds(base: base, client: transport.makeClient()) }
        #expect(finished == true)
    }

    /// On Linux, a task cancelled while the session's delegate was deciding a redirect crashed the
    /// process when the decision came ("Received callback for HTTP redirection, but we're not waiting
    /// for it"): 3 runs of 3 before the fix.
    @Test("Requests cancelled or timed out in the middle of a redirect loop all end, and the process goes on", arguments: TransportKind.all)
    func cancelAmidRedirects(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(status: 302, headers: ["Location": "/loop", "Content-Length": "0", "Connection": "close"])
        }
        let base = server.baseURL
        let client = transport.makeClient()
        let results = await withTaskGroup(of: APIError?.self) { group in
            for index in 0..<200 {
                group.addTask {
                    // Idle timeouts of 1–20 ms for half, cancellation after 1–20 ms for the other half.
                    let delay = 1 + index % 20
                    var endpoint = TestEndpoint(base: base, path: "/loop")
                    endpoint.timeout = index.isMultiple(of: 2) ? Double(delay) / 1000 : nil
                    let task = Task { await client.fetch(endpoint, as: Empty.self).failure }
                    if !index.isMultiple(of: 2) {
                        try? await Task.sleep(nanoseconds: UInt64(delay) * 1_000_000)
                        task.cancel()
                    }
                    return await task.value
                }
            }
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }
        #expect(results.count == 200)
        // A connection reset now and then is the test server's, under thousands of connections at once.
        let ends = results.filter {
            !($0 == .cancelled || $0 == .timedOut || $0?.isTooManyRedirects == true || $0?.isConnectionLost == true)
        }
        #expect(ends.isEmpty, "\(ends)")
        // The decisions still queued for those tasks reach the session before this request ends.
        _ = await client.fetch(TestEndpoint(base: base, path: "/loop"), as: Empty.self)
        try await Task.sleep(nanoseconds: 100_000_000)
    }

    private static func rounds(base: String, client: NetworkClient) async -> Bool {
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

    var isConnectionLost: Bool {
        if case .requestFailed(let error) = self { error.code == .networkConnectionLost } else { false }
    }

    var isTooManyRedirects: Bool {
        if case .requestFailed(let error) = self { error.code == .httpTooManyRedirects } else { false }
    }
}
