import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads from files that the server cuts off or never reads: each ends with a typed error, the
/// process goes on, and one stalled upload holds back no other.
///
/// Over FoundationNetworking an upload task reading its file through `DispatchIO` trapped in about
/// one upload in ten reset part way (`EasyHandle.swift:484`); ``URLSessionTransport`` reads the file
/// as a stream instead. Runs in the fault pass (`NETWORKLAYER_FAULTS=1`).
@Suite("Uploads cut off or stalled by the server", .serialized, .faultserver, .faults)
struct UploadFaultTests {
    private struct Upload: Endpoint {
        let base: String
        let path: String
        let file: URL
        var parameters: Parameters = [:]
        var method: HTTPMethod { .post }
        var task: HTTPTask { .uploadFile(file, urlParameters: parameters) }
    }

    @Test(
        "100 uploads of a 5 MB file and 20 of a 50 MB file, each reset after 16 KiB to 1 MiB, all fail with requestFailed",
        arguments: TransportKind.all)
    func resetPartWay(transport: TransportKind) async throws {
        let base = try FaultServer.base()
        let directory = try TemporaryDirectory()
        let small = directory.file("5MB.bin")
        try Pattern.data(count: 5_000_000).write(to: small)
        let large = directory.file("50MB.bin")
        try Pattern.data(count: 50_000_000).write(to: large)
        let client = transport.makeClient(timeout: 10)
        let files = Array(repeating: small, count: 100) + Array(repeating: large, count: 20)
        let uploads = files.map { file in
            Upload(base: base, path: "/reset-upload", file: file, parameters: ["after": Int.random(in: 16 * 1024...1024 * 1024)])
        }
        let errors = await Self.errors(of: uploads, on: client, atOnce: 20)
        #expect(errors.count == 120)
        let unexpected = errors.filter { error in
            guard case .requestFailed? = error else { return true }
            return false
        }
        #expect(unexpected.isEmpty, "\(unexpected.count) ended otherwise: \(unexpected.prefix(3).map { String(describing: $0) })")
    }

    @Test("Four uploads to a server that reads nothing do not hold back a fifth to one that does", arguments: TransportKind.all)
    func stalledUploadsHoldNothingBack(transport: TransportKind) async throws {
        let base = try FaultServer.base()
        let directory = try TemporaryDirectory()
        let file = directory.file("20MB.bin")
        try Pattern.data(count: 20_000_000).write(to: file)
        let client = transport.makeClient(timeout: 30)
        let stalledEnded = Locked(0)
        let stalled = (0..<4).map { _ in
            Task {
                _ = try? await client.upload(for: Upload(base: base, path: "/stall-upload", file: file), as: Data.self)
                stalledEnded.withLock { $0 += 1 }
            }
        }
        // Under way first, as uploads stuck on a dead host would be.
        try await Task.sleep(nanoseconds: 200_000_000)
        let answer = try await client.upload(for: Upload(base: base, path: "/ok", file: file), as: Data.self)
        #expect(String(decoding: answer, as: UTF8.self) == #"{"ok": true}"#)
        #expect(stalledEnded.withLock { $0 } == 0, "the stalled uploads were still under way when the fifth ended")
        stalled.forEach { $0.cancel() }
        for upload in stalled { await upload.value }
    }

    @Test("50 uploads that time out on a server that reads nothing close every file and socket they opened", arguments: TransportKind.all)
    func timedOutUploadsCloseTheirFiles(transport: TransportKind) async throws {
        let base = try FaultServer.base()
        let directory = try TemporaryDirectory()
        let file = directory.file("5MB.bin")
        try Pattern.data(count: 5_000_000).write(to: file)
        let client = transport.makeClient(timeout: 1)
        _ = try await client.upload(for: Upload(base: base, path: "/ok", file: file), as: Data.self)
        let idle = try #require(ProcessResources.fileDescriptors)
        let stalled = Array(repeating: Upload(base: base, path: "/stall-upload", file: file), count: 50)
        let errors = await Self.errors(of: stalled, on: client, atOnce: 50)
        #expect(errors.allSatisfy { $0 == .timedOut }, "\(errors.filter { $0 != .timedOut }.prefix(3))")
        // The connections the transport keeps for reuse may stay; nothing else of these uploads may.
        let limit = idle + transport.connectionsPerHost
        let settled = await eventually(timeout: 10) { (ProcessResources.fileDescriptors ?? 0) <= limit }
        #expect(settled, "\(ProcessResources.fileDescriptors ?? 0) descriptors open, \(idle) before")
        let uploadsClosed = await eventually(timeout: 10) { ProcessResources.descriptors(openOn: file) == 0 }
        #expect(uploadsClosed, "\(ProcessResources.descriptors(openOn: file)) descriptors of the uploaded file are still open")
    }

    /// Sends every upload, `atOnce` at a time, and returns how each ended: `nil` for an answer, else its error.
    private static func errors(of uploads: [Upload], on client: NetworkClient, atOnce: Int) async -> [APIError?] {
        await withTaskGroup(of: APIError?.self) { group in
            var errors: [APIError?] = []
            for (index, upload) in uploads.enumerated() {
                if index >= atOnce, let error = await group.next() { errors.append(error) }
                group.addTask {
                    do throws(APIError) {
                        _ = try await client.upload(for: upload, as: Data.self)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            for await error in group { errors.append(error) }
            return errors
        }
    }
}
