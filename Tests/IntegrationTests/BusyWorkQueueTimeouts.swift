import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers that keep FoundationNetworking's work queue, which every session of the process shares,
/// busy for seconds (10,000 header lines, parsed in time that grows with their square; 5,000 interim
/// `103` heads, handled one after another): fifty at once on one client, and every call still ends by
/// its timeout. A pass of its own in `scripts/test` (`NETWORKLAYER_FAULTS=1`, filter `BusyWorkQueue`):
/// the busy queue holds up every other test of the process that sends over URLSession meanwhile.
@Suite("Calls end by their timeout while the work queue is busy", .serialized, .faultserver, .faults)
struct BusyWorkQueueTimeouts {
    /// How long past its timeout a call may take to end (a loaded two-core machine included).
    static let slack: TimeInterval = 1
    /// The calls in flight at once.
    static let inFlight = 50

    /// An answer that keeps the work queue busy.
    enum BusyAnswer: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case tenThousandHeaders = "/ten-thousand-headers"
        case manyInterimHeads = "/many-interim"

        var testDescription: String { self == .tenThousandHeaders ? "10,000 header lines" : "5,000 interim 103 heads" }
    }

    /// How one call ended: how long it took from its start, and its error.
    struct Ended: Sendable {
        let seconds: Double
        let error: APIError?
    }

    @Test(
        "50 calls at once to an answer that keeps the work queue busy each end within a second of their 2 s timeout",
        arguments: TransportKind.all, BusyAnswer.allCases)
    func endByTheirTimeout(transport: TransportKind, answer: BusyAnswer) async throws {
        let base = try FaultServer.base()
        let client = transport.makeClient()
        let timeout: TimeInterval = 2
        let calls = try await withWallTimeout(seconds: 60) {
            await withTaskGroup(of: Ended.self) { group in
                for _ in 0..<Self.inFlight {
                    group.addTask {
                        var endpoint = HTTPBinEndpoint(base: base, path: answer.rawValue)
                        endpoint.timeout = timeout
                        let stopwatch = Stopwatch()
                        let result = await client.fetch(endpoint, as: FaultTests.Reply.self)
                        return Ended(seconds: stopwatch.seconds, error: result.failure)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(calls.count == Self.inFlight)
        let late = calls.filter { $0.seconds > timeout + Self.slack }.map(\.seconds).sorted()
        #expect(late.isEmpty, "\(late.count) of \(calls.count) calls ended late, the latest after \(late.last ?? 0) s")
        let unexpected = calls.compactMap(\.error).filter { error in
            if case .timedOut = error { return false }
            // AsyncHTTPClient refuses a head of 10,000 lines at once (its parser's limit on a head's size).
            if case .requestFailed(let urlError) = error, urlError.code == .badServerResponse { return false }
            return true
        }
        #expect(unexpected.isEmpty, "\(unexpected.count) ended otherwise: \(unexpected.prefix(3).map(String.init(describing:)))")
        // The queue goes on with the cancelled tasks' heads for a while (FoundationNetworking's own work,
        // which nothing stops): it frees up in the end, and the next test starts on a free queue.
        var after = HTTPBinEndpoint(base: base, path: "/ok")
        after.timeout = 15
        var answered = await transport.makeClient().fetch(after, as: FaultTests.Reply.self)
        for _ in 0..<8 where answered.failure == .timedOut {
            answered = await transport.makeClient().fetch(after, as: FaultTests.Reply.self)
        }
        #expect(answered.failure == nil, "a request after them, within two minutes: \(String(describing: answered.failure))")
    }
}
