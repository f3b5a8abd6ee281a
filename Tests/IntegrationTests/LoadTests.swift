import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A thousand requests at once on one client, for each way of sending: every one completes, the
/// process's threads stay bounded while they run, and its file descriptors come back afterwards.
///
/// The counts are the whole process's, so the suite runs alone (`NETWORKLAYER_LOAD=1`, a pass of its
/// own in `scripts/test`) and one test at a time, against the local file server.
@Suite("Load: 1,000 requests in flight on one client", .serialized, .fileserver, .load)
struct LoadTests {
    /// Requests in flight at once.
    static let inFlight = 1000
    /// The most threads the process may have while they run.
    static let threadLimit = 64
    /// A burst that takes longer has hung: it fails instead of stalling the run.
    static let wallTimeout: Double = 60
    /// The bytes of each downloaded or uploaded body: 60 KiB, below the size from which a Linux upload
    /// closes its connection after the answer.
    static let bodySize = 60 * 1024

    @Test("1,000 sends at once all decode their own answer", arguments: TransportKind.all)
    func sends(transport: TransportKind) async throws {
        try await burst(transport, verb: "sends") { client, index in
            struct Answer: Decodable { let index: Int }
            let answer: Answer = try await client.send(try FileServer.endpoint("/json", query: ["index": index], timeout: 30))
            #expect(answer.index == index)
        }
    }

    @Test("1,000 downloads at once each write their whole file", arguments: TransportKind.all)
    func downloads(transport: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        try await burst(transport, verb: "downloads") { client, index in
            let file = try await client.download(
                for: try FileServer.endpoint("/pattern", query: ["size": Self.bodySize], timeout: 30), to: directory.file("\(index).bin"))
            #expect(file.byteCount == Int64(Self.bodySize))
            #expect(try Pattern.matches(file.fileURL))
            try FileManager.default.removeItem(at: file.fileURL)
        }
        #expect(directory.contents.isEmpty, "no partial file is left")
    }

    @Test("1,000 streams at once each read every line", arguments: TransportKind.all)
    func streams(transport: TransportKind) async throws {
        try await burst(transport, verb: "streams") { client, _ in
            let stream = try await client.stream(for: try FileServer.endpoint("/lines", query: ["count": 8], timeout: 30))
            var lines = 0
            for try await _ in stream.lines { lines += 1 }
            #expect(lines == 8)
        }
    }

    @Test("1,000 uploads at once each arrive whole", arguments: TransportKind.all)
    func uploads(transport: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: Self.bodySize).write(to: file)
        try await burst(transport, verb: "uploads") { client, _ in
            let sink: Sink = try await client.upload(
                for: try FileServer.endpoint(
                    "/sink", method: .put, task: .uploadFile(file, contentType: "application/octet-stream"), timeout: 30))
            #expect(sink.bytes == Self.bodySize)
            #expect(sink.pattern)
        }
    }

    /// Runs one request, then ``inFlight`` at once on the same client, and checks the process's
    /// threads during the burst and its file descriptors after it.
    private func burst(
        _ transport: TransportKind,
        verb: String,
        _ request: @escaping @Sendable (NetworkClient, Int) async throws -> Void
    ) async throws {
        let client = transport.makeClient()
        // One request first, so that the session and its threads and connection exist before counting.
        try await request(client, -1)
        let idleDescriptors = ProcessResources.fileDescriptors
        let sampler = ThreadSampler()
        let stopwatch = Stopwatch()
        let failures = try await withWallTimeout(seconds: Self.wallTimeout) {
            await withTaskGroup(of: String?.self) { group in
                for index in 0..<Self.inFlight {
                    group.addTask {
                        do {
                            try await request(client, index)
                            return nil
                        } catch {
                            return "\(index): \(error)"
                        }
                    }
                }
                var failures: [String] = []
                for await failure in group {
                    if let failure { failures.append(failure) }
                }
                return failures
            }
        }
        let seconds = stopwatch.seconds
        let threads = sampler.stop()
        #expect(failures.isEmpty, "\(failures.count) of \(Self.inFlight) failed, first: \(failures.prefix(3))")
        guard let idleDescriptors else { return }
        // Connections the transport keeps for reuse are bounded by its connections per host, not by the burst.
        let descriptorLimit = idleDescriptors + transport.connectionsPerHost + 8
        let settled = await eventually(timeout: 5) { (ProcessResources.fileDescriptors ?? 0) <= descriptorLimit }
        let descriptors = ProcessResources.fileDescriptors ?? 0
        print(
            "load: \(Self.inFlight) \(verb) through \(transport.rawValue) in \(String(format: "%.1f", seconds)) s; "
                + "at most \(threads.highest) threads (\(threads.samples) samples); "
                + "file descriptors \(idleDescriptors) before, \(descriptors) after")
        #expect(threads.highest <= Self.threadLimit, "\(threads.highest) threads during the burst")
        #expect(settled, "\(descriptors) file descriptors after the burst, \(idleDescriptors) before (limit \(descriptorLimit))")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only in the pass `scripts/test` gives to load tests (`NETWORKLAYER_LOAD=1`).
    static var load: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["NETWORKLAYER_LOAD"] == "1",
            "load tests run alone: scripts/test runs them in a pass of their own with NETWORKLAYER_LOAD=1"
        )
    }
}
