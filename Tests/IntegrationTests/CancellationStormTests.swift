import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A thousand calls in flight against a server that drips its body, each cancelled at a random
/// moment in its first 200 ms, three rounds in one process, for each way of sending: every call ends
/// cancelled or successful, the process goes on, and threads, descriptors and files come back.
///
/// Over `URLSession`, 200 or more downloads or streams cancelled this way once ended the process with
/// a stack overflow: a body chunk arriving after the exchange had ended made the transport's handler
/// call itself without end. Runs in the load pass (`NETWORKLAYER_LOAD=1`), alone.
@Suite("Cancellation storms: 1,000 calls cancelled at random moments", .serialized, .fileserver, .load)
struct CancellationStormTests {
    static let inFlight = 1000
    static let rounds = 3
    static let threadLimit = 64
    static let wallTimeout: Double = 120

    enum Verb: String, CaseIterable, Sendable {
        case send, download, stream, upload
    }

    @Test(
        "Each call ends cancelled or successful, and the process keeps its threads, descriptors and files", arguments: TransportKind.all,
        Verb.allCases)
    func storm(transport: TransportKind, verb: Verb) async throws {
        let directory = try TemporaryDirectory()
        let upload = directory.file("upload.bin")
        try Pattern.data(count: 60 * 1024).write(to: upload)
        let downloads = directory.file("downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let client = transport.makeClient()
        // A first call, so that the session, its threads and a connection exist before counting.
        try await Self.call(verb, client, index: -1, upload: upload, downloads: downloads)
        try FileManager.default.removeItem(at: downloads)
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let idleDescriptors = ProcessResources.fileDescriptors
        for round in 1...Self.rounds {
            let sampler = ThreadSampler()
            let unexpected = try await withWallTimeout(seconds: Self.wallTimeout) {
                await withTaskGroup(of: String?.self) { group in
                    for index in 0..<Self.inFlight {
                        let call = Task {
                            do throws(APIError) {
                                try await Self.call(verb, client, index: index, upload: upload, downloads: downloads)
                                return String?.none
                            } catch .cancelled {
                                return nil
                            } catch {
                                return "\(index): \(error)"
                            }
                        }
                        group.addTask {
                            try? await Task.sleep(nanoseconds: UInt64.random(in: 0...200_000_000))
                            call.cancel()
                            return await call.value
                        }
                    }
                    var unexpected: [String] = []
                    for await outcome in group {
                        if let outcome { unexpected.append(outcome) }
                    }
                    return unexpected
                }
            }
            let threads = sampler.stop()
            #expect(unexpected.isEmpty, "round \(round): \(unexpected.count) ended otherwise, first: \(unexpected.prefix(3))")
            #expect(threads.highest <= Self.threadLimit, "round \(round): \(threads.highest) threads")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []
            #expect(left.isEmpty, "round \(round): \(left.count) files left behind")
            let uploadsClosed = await eventually(timeout: 10) { ProcessResources.descriptors(openOn: upload) == 0 }
            let uploadsOpen = ProcessResources.descriptors(openOn: upload)
            #expect(uploadsClosed, "round \(round): \(uploadsOpen) descriptors of the uploaded file still open")
            if let idleDescriptors {
                let limit = idleDescriptors + transport.connectionsPerHost + 8
                let settled = await eventually(timeout: 10) { (ProcessResources.fileDescriptors ?? 0) <= limit }
                #expect(settled, "round \(round): \(ProcessResources.fileDescriptors ?? 0) descriptors, \(idleDescriptors) before")
            }
        }
    }

    /// One call of `verb` against a body that drips 100 lines over about a second.
    private static func call(_ verb: Verb, _ client: NetworkClient, index: Int, upload: URL, downloads: URL) async throws(APIError) {
        let drip = try? FileServer.endpoint("/lines", query: ["count": 100, "interval": 0.01], timeout: 30)
        guard let drip else { throw .invalidRequest("the file server is not running") }
        switch verb {
        case .send:
            _ = try await client.send(drip, as: Data.self)
        case .download:
            let file = try await client.download(for: drip, to: downloads.appendingPathComponent("\(index).ndjson"))
            try? FileManager.default.removeItem(at: file.fileURL)
        case .stream:
            for try await _ in try await client.stream(for: drip).lines {}
        case .upload:
            let sink = try? FileServer.endpoint("/sink", method: .put, task: .uploadFile(upload), timeout: 30)
            guard let sink else { throw .invalidRequest("the file server is not running") }
            _ = try await client.upload(for: sink, as: Data.self)
        }
    }
}
