import Foundation
import NetworkLayer
import TestSupport
import Testing

/// What a download leaves beside its destination when it fails, how the next download to the
/// destination goes on with it, and how an app lists and removes what was abandoned.
@Suite("Partial downloads kept beside the destination")
struct PartialDownloadTests {
    static let size = 1_000_000

    /// A failed download of `server`'s `/file` to `destination`, its connection dropped at 40 %.
    static func failedDownload(_ server: RangeServer, to destination: URL, over transport: TransportKind) async {
        await #expect(throws: APIError.self) {
            try await transport.makeClient().download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: destination)
        }
    }

    @Test(
        "A failed download keeps its partial file, and the next download to the destination goes on with it", arguments: TransportKind.all)
    func failureKeepsThePartialFile(transport: TransportKind) async throws {
        let body = RangeServer.content(count: Self.size)
        let server = try RangeServer(.init(body: body, headers: ["Last-Modified": "Tue, 01 Sep 2026 10:00:00 GMT"]), dropsAt: [400_000])
        let directory = try TemporaryDirectory()
        await Self.failedDownload(server, to: directory.file("a.bin"), over: transport)
        let left = DownloadResumeData.partialDownloads(in: directory.url)
        #expect(left.map(\.bytesReceived) == [400_000])
        #expect(left.map(\.expectedBytes) == [Int64(Self.size)])

        let file = try await transport.makeClient().download(
            for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("a.bin"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.last?.range == "bytes=400000-")
        #expect(server.requests.last?.ifRange == "Tue, 01 Sep 2026 10:00:00 GMT")
        #expect(directory.contents == ["a.bin"])
    }

    @Test("A resumable body over the download limit leaves nothing behind: the next download would be over it too")
    func overTheLimitKeepsNothing() async throws {
        let server = try RangeServer(.init(body: RangeServer.content(count: Self.size), headers: ["ETag": #""v1""#]))
        let directory = try TemporaryDirectory()
        let client = TransportKind.urlSession.makeClient(responseLimits: ResponseLimits(download: 100_000))
        let error = await #expect(throws: APIError.self) {
            try await client.download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("a.bin"))
        }
        guard case .responseTooLarge(.download, limit: 100_000, _, _)? = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(directory.contents.isEmpty)
    }

    @Test("A link planted where the partial file goes is never written through: the download writes a file of its own")
    func plantedLinkIsNotFollowed() async throws {
        let body = RangeServer.content(count: Self.size)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]))
        let directory = try TemporaryDirectory()
        let victim = directory.file("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        // One where the partial file goes, one where its record is written before it is renamed into place.
        try FileManager.default.createSymbolicLink(at: directory.file(".a.bin.partial"), withDestinationURL: victim)
        try FileManager.default.createSymbolicLink(at: directory.file(".b.bin.partial.json.new"), withDestinationURL: victim)
        for name in ["a.bin", "b.bin"] {
            let file = try await NetworkClient().download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file(name))
            #expect(try Data(contentsOf: file.fileURL) == body)
            #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me", "\(name)")
        }
    }

    @Test("Resume data whose partial file holds another body by now (a later download's) starts over, and leaves that file alone")
    func staleResumeDataNeverSplices() async throws {
        let bodyA = RangeServer.content(count: Self.size, seed: 1)
        let bodyB = RangeServer.content(count: Self.size, seed: 2)
        let serverA = try RangeServer(.init(body: bodyA, headers: ["ETag": #""a""#]), dropsAt: [400_000])
        let serverB = try RangeServer(.init(body: bodyB, headers: ["ETag": #""b""#]), dropsAt: [600_000])
        let directory = try TemporaryDirectory()
        let client = NetworkClient()
        let endpointA = TestEndpoint(base: serverA.baseURL, path: "/file")
        var resumeA: DownloadResumeData?
        do {
            _ = try await client.download(resuming: nil, for: endpointA, to: directory.file("x.bin"))
        } catch {
            if case .downloadInterrupted(_, let resumeData) = error { resumeA = resumeData }
        }
        let saved = try #require(resumeA)
        await Self.failedDownload(serverB, to: directory.file("x.bin"), over: .urlSession)
        saved.discard()
        #expect(DownloadResumeData.partialDownloads(in: directory.url).map(\.bytesReceived) == [600_000], "B's partial file stays")

        let file = try await client.download(resuming: saved, for: endpointA, to: directory.file("x.bin"))
        #expect(try Data(contentsOf: file.fileURL) == bodyA, "A whole, nothing of B")
        #expect(serverA.requests.last?.range == nil)
    }

    @Test("A download of another URL to the same destination starts over: a partial file goes on only with its own URL")
    func anotherURLStartsOver() async throws {
        let body = RangeServer.content(count: Self.size)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""same""#]), dropsAt: [400_000])
        let directory = try TemporaryDirectory()
        await Self.failedDownload(server, to: directory.file("a.bin"), over: .urlSession)
        let file = try await NetworkClient().download(for: TestEndpoint(base: server.baseURL, path: "/other"), to: directory.file("a.bin"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(
            server.requests.last == .init(path: "/other", range: nil, ifRange: nil), "the whole body, though the ETag would have matched")
        #expect(directory.contents == ["a.bin"])
    }

    @Test("Abandoned partial files are listed with their age and size, and an app removes the old ones with their records")
    func cleanupByAge() async throws {
        let server = try RangeServer(
            .init(body: RangeServer.content(count: Self.size), headers: ["ETag": #""v1""#]), dropsAt: [300_000, 600_000])
        let directory = try TemporaryDirectory()
        await Self.failedDownload(server, to: directory.file("old.bin"), over: .urlSession)
        await Self.failedDownload(server, to: directory.file("new.bin"), over: .urlSession)
        let twoDaysAgo = Date(timeIntervalSinceNow: -2 * 86_400)
        try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: directory.file(".old.bin.partial").path)

        let left = DownloadResumeData.partialDownloads(in: directory.url)
        #expect(left.count == 2)
        for partial in left where (partial.modificationDate ?? .distantPast) < Date(timeIntervalSinceNow: -86_400) {
            partial.discard()
        }
        #expect(directory.contents == [".new.bin.partial", ".new.bin.partial.json"], "the old one went, with its record")
        #expect(DownloadResumeData.partialDownloads(in: directory.url).map(\.bytesReceived) == [600_000])
    }

    @Test("A partial file a download is writing is not listed, and cancelling the download deletes it", .timeSensitive)
    func partialFileInUse() async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "\(Self.size)", "ETag": #""v1""#])
            connection.write(Pattern.data(count: 256 * 1024))
            connection.waitUntilClosed()
        }
        let directory = try TemporaryDirectory()
        let log = ProgressLog()
        let task = Task { () async throws(APIError) -> DownloadedFile in
            try await NetworkClient().download(for: TestEndpoint(base: server.baseURL), to: directory.file("a.bin"), progress: log.handler)
        }
        #expect(await eventually { (log.all.last?.completedBytes ?? 0) >= 256 * 1024 }, "part of the body arrived")
        #expect(directory.contents.contains(".a.bin.partial"))
        #expect(DownloadResumeData.partialDownloads(in: directory.url).isEmpty, "in use: not listed")
        task.cancel()
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error == .cancelled)
        #expect(directory.contents.isEmpty, "cancelled by the caller: nothing kept")
    }

    @Test(
        "Two downloads to one destination at once: the second writes a partial file of its own, and both finish",
        arguments: TransportKind.all)
    func twoDownloadsToOneDestination(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 4 * Self.size)
        // Neither body is sent before both requests are made: the two downloads overlap.
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), rendezvous: 2)
        let directory = try TemporaryDirectory()
        let client = transport.makeClient()
        let endpoint = TestEndpoint(base: server.baseURL, path: "/file")
        async let first = client.download(for: endpoint, to: directory.file("a.bin"))
        async let second = client.download(for: endpoint, to: directory.file("a.bin"))
        let files = try await [first, second]
        #expect(files.map(\.byteCount) == [Int64(body.count), Int64(body.count)])
        #expect(try Data(contentsOf: directory.file("a.bin")) == body)
        #expect(server.requests.allSatisfy { $0.range == nil }, "neither went on with the other's bytes")
        #expect(directory.contents == ["a.bin"])
    }
}
