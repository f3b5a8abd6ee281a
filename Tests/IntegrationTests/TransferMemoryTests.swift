import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Large transfers must not need memory in proportion to their size. Each test resets the process's
/// peak resident memory, transfers a large body and checks how far the peak rose: with the body
/// held in memory it would rise by the body's size (FoundationNetworking's `data(for:)` needs about
/// 2.3 times it); streamed, by little more than FoundationNetworking's own working set.
///
/// These gigabyte transfers run alone: `scripts/test` runs them in a second pass with
/// `NETWORKLAYER_LARGE_TRANSFERS=1`. A loopback transfer at full speed keeps the machine's cores
/// busy, delaying other suites' callbacks by seconds and spoiling their timing checks (and their
/// memory would spoil these figures).
///
/// Set `NETWORKLAYER_PRINT_MEMORY=1` to print the figures (the Performance article quotes them).
@Suite(
    "Memory stays flat for large transfers", .fileserver, .largeTransfers,
    .enabled(if: PeakMemory.isAvailable, "needs Linux's /proc/self/clear_refs"), .serialized)
struct TransferMemoryTests {
    static let bound: Int64 = 64 * 1024 * 1024

    static func report(_ what: String, _ rise: Int64, _ elapsed: Double) {
        guard ProcessInfo.processInfo.environment["NETWORKLAYER_PRINT_MEMORY"] == "1" else { return }
        print(
            "[memory] \(what): peak RSS +\(String(format: "%.1f", Double(rise) / 1_048_576)) MiB, \(String(format: "%.2f", elapsed)) seconds"
        )
    }

    @Test("Downloading 1 GiB to a file raises the peak by far less than the body", arguments: TransportKind.all)
    func download(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let directory = try TemporaryDirectory()
        // A first small transfer, so that the rise measured is the large one's, not the client's first.
        _ = try await client.download(for: try FileServer.endpoint("/pattern", query: ["size": 1000]), to: directory.file("warm-up"))
        let stopwatch = Stopwatch()
        let (file, rise) = try await PeakMemory.rise {
            try await client.download(for: try FileServer.endpoint("/files/1gib.bin"), to: directory.file("1gib.bin"))
        }
        Self.report("download 1 GiB", rise, stopwatch.seconds)
        #expect(file.byteCount == 1 << 30)
        #expect(file.response.headers["Content-Length"] == "\(1 << 30)")
        #expect((try FileManager.default.attributesOfItem(atPath: file.fileURL.path)[.size] as? NSNumber)?.int64Value == 1 << 30)
        #expect(rise < Self.bound, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test("Reading 200 MB into memory with data(for:) peaks at little more than the body, not twice it", arguments: TransportKind.all)
    func dataInMemory(transport: TransportKind) async throws {
        let size = 200_000_000
        // Past the default in-memory limit of 64 MiB: raised for the one body this test reads.
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: Int64(size)))
        _ = try await client.response(for: try FileServer.endpoint("/pattern", query: ["size": 1000]))
        let stopwatch = Stopwatch()
        let log = Locked<[TransferProgress]>([])
        let (response, rise) = try await PeakMemory.rise {
            try await client.response(for: try FileServer.endpoint("/pattern", query: ["size": size])) { progress in
                log.withLock { $0.append(progress) }
            }
        }
        Self.report("data(for:) 200 MB into memory", rise, stopwatch.seconds)
        #expect(response.body.count == size)
        #expect(log.withLock { $0.last } == TransferProgress(completedBytes: Int64(size), expectedBytes: Int64(size)))
        #expect(rise < Int64(size) * 13 / 10, "peak rose by \(rise / 1_048_576) MiB for a body of \(size / 1_048_576) MiB")
    }

    @Test(
        "A stream read a chunk every 50 ms for 5 s while 50 MB arrive neither fails nor raises the peak by more than a few MiB",
        arguments: TransportKind.all)
    func slowStreamReader(transport: TransportKind) async throws {
        let client = transport.makeClient()
        _ = try await client.response(for: try FileServer.endpoint("/pattern", query: ["size": 1000]))
        let stopwatch = Stopwatch()
        let (read, rise): (Int, Int64) = try await PeakMemory.rise {
            let stream = try await client.stream(for: try FileServer.endpoint("/pattern", query: ["size": 50_000_000]))
            var iterator = stream.makeAsyncIterator()
            var read = 0
            for _ in 0..<100 {
                guard let chunk = try await iterator.next() else { break }
                read += chunk.count
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            return read
        }
        Self.report("stream of 50 MB read slowly for 5 s", rise, stopwatch.seconds)
        #expect(read > 0 && read < 50_000_000, "the reader was still behind when it stopped: \(read) bytes read")
        #expect(rise < 8 * 1024 * 1024, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test("Uploading a 512 MiB file raises the peak by far less than the body", arguments: TransportKind.all)
    func uploadFile(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let directory = try TemporaryDirectory()
        let file = try directory.sparseFile("upload.bin", size: 512 << 20)
        let _: Sink = try await client.upload(
            for: try FileServer.endpoint("/sink", method: .post, task: .requestData(Data("x".utf8), contentType: "text/plain")))
        let stopwatch = Stopwatch()
        let (sink, rise): (Sink, Int64) = try await PeakMemory.rise {
            try await client.upload(for: try FileServer.endpoint("/sink", method: .post, task: .uploadFile(file)))
        }
        Self.report("upload 512 MiB from a file", rise, stopwatch.seconds)
        #expect(sink.bytes == 512 << 20)
        #expect(rise < Self.bound, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test("A multipart form with a 512 MiB file raises the peak by far less than the body", arguments: TransportKind.all)
    func uploadMultipart(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let directory = try TemporaryDirectory()
        let file = try directory.sparseFile("video.bin", size: 512 << 20)
        var form = MultipartFormData()
        form.append("Heat", name: "title")
        form.append(fileAt: file, name: "video", contentType: "video/mp4")
        let _: Sink = try await client.upload(
            for: try FileServer.endpoint("/sink", method: .post, task: .requestData(Data("x".utf8), contentType: "text/plain")))
        let stopwatch = Stopwatch()
        let (parsed, rise): (ParsedForm, Int64) = try await PeakMemory.rise {
            try await client.upload(for: try FileServer.endpoint("/multipart", method: .post, task: .uploadMultipart(form)))
        }
        Self.report("multipart with a 512 MiB file", rise, stopwatch.seconds)
        #expect(parsed.complete)
        #expect(parsed.parts.map(\.bytes) == [4, 512 << 20])
        #expect(rise < Self.bound, "peak rose by \(rise / 1_048_576) MiB")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only in the pass `scripts/test` gives to large transfers (`NETWORKLAYER_LARGE_TRANSFERS=1`).
    static var largeTransfers: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["NETWORKLAYER_LARGE_TRANSFERS"] == "1",
            "large transfers run alone: scripts/test runs them in a pass of their own with NETWORKLAYER_LARGE_TRANSFERS=1"
        )
    }
}
