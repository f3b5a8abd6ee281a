import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Uploads and downloads against a local file server", .fileserver)
struct FileTransferTests {

    @Test(
        "A file uploads with its size as Content-Length, not chunked, every byte intact, progress ending at 100 %",
        arguments: TransportKind.all)
    func uploadFile(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        let content = Pattern.data(count: 2 * 1024 * 1024 + 1)
        try content.write(to: file)
        let log = ProgressLog()
        let sink: Sink = try await client.upload(
            for: try FileServer.endpoint("/sink", method: .put, task: .uploadFile(file, contentType: "application/x-test")),
            progress: log.handler)
        #expect(sink.bytes == content.count)
        #expect(sink.contentLength == "\(content.count)")
        #expect(!sink.chunked)
        #expect(sink.contentType == "application/x-test")
        #expect(sink.pattern, "every byte arrived, in order")
        #expect(log.all.count > 2)
        #expect(log.isMonotonic)
        #expect(log.all.last == TransferProgress(completedBytes: Int64(content.count), expectedBytes: Int64(content.count)))
    }

    @Test("A download writes every byte in order, reporting progress against the Content-Length", arguments: TransportKind.all)
    func download(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let directory = try TemporaryDirectory()
        let size = 2 * 1024 * 1024 + 17
        let log = ProgressLog()
        let file = try await client.download(
            for: try FileServer.endpoint("/pattern", query: ["size": size]), to: directory.file("pattern.bin"), progress: log.handler)
        #expect(file.byteCount == Int64(size))
        #expect(file.response.headers["Content-Length"] == "\(size)")
        #expect(try Pattern.matches(file.fileURL))
        #expect(log.all.count > 2)
        #expect(log.isMonotonic)
        #expect(log.all.allSatisfy { $0.expectedBytes == Int64(size) })
        #expect(log.all.last?.completedBytes == Int64(size))
    }

    @Test("A failed status leaves no file, and the error has the body", arguments: TransportKind.all)
    func failedStatus(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let directory = try TemporaryDirectory()
        let error = await #expect(throws: APIError.self) {
            try await client.download(for: try FileServer.endpoint("/status/503", query: ["size": 12]), to: directory.file("x.bin"))
        }
        #expect(error?.statusCode == 503)
        #expect(error?.response?.text == "xxxxxxxxxxxx")
        #expect(directory.contents.isEmpty)
    }

    @Test("Cancelling mid-download removes the partial file and closes the connection", arguments: TransportKind.all)
    func cancelMidDownload(transport: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        let id = UUID().uuidString
        let log = ProgressLog()
        let client = transport.makeClient()
        let endpoint = try FileServer.endpoint("/stall", query: ["size": 64 * 1024 * 1024, "sent": 2 * 1024 * 1024, "id": id])
        let task = Task { try await client.download(for: endpoint, to: directory.file("big.bin"), progress: log.handler) }
        #expect(await eventually { (log.all.last?.completedBytes ?? 0) >= 1024 * 1024 }, "part of the body arrived")
        task.cancel()
        await #expect(throws: APIError.cancelled) { try await task.value }
        #expect(directory.contents.isEmpty, "the partial file is gone")
        struct Closed: Decodable { let closed: Bool }
        let closedEndpoint = try FileServer.endpoint("/closed", query: ["id": id])
        let closed = await eventually {
            let answer: Closed? = try? await client.send(closedEndpoint)
            return answer?.closed == true
        }
        #expect(closed, "the server saw the connection close")
    }
}

/// Waits until `condition` holds or `timeout` seconds pass; returns whether it held.
func eventually(timeout: TimeInterval = 10, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return await condition()
}
