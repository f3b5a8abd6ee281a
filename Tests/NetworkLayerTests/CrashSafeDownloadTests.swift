import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Downloads that outlive their process: a child process is killed (`SIGKILL`) part way through a
/// download, and the next download to the same destination — in this process, with a new client and
/// nothing kept — goes on from the bytes the dead one wrote, or starts over when the server's file
/// changed.
@Suite("Downloads that survive the process")
struct CrashSafeDownloadTests {
    static let size = 16 * 1024 * 1024
    /// 128 KiB at a time; and the server holds its answer once past the point of the kill, so that
    /// what the dying client had not written yet is at most a chunk, not the megabytes that socket
    /// buffers and a transport's read-ahead hold.
    static let pacing = RangeServer.Pacing(chunk: 128 * 1024, pause: 0.002)

    /// Runs a download of `server`'s `/file` to `destination` in a child process that kills itself
    /// with `SIGKILL` once `killAt` bytes are in the file.
    static func downloadAndDie(_ server: RangeServer, to destination: URL, over transport: TransportKind, killAt: Int) async {
        await #expect(processExitsWith: .signal(SIGKILL)) {
            [
                base = server.baseURL as String, path = destination.path as String, kind = transport.rawValue as String,
                killAt = killAt as Int
            ] in
            guard let transport = TransportKind(rawValue: kind) else { exit(2) }
            do {
                _ = try await transport.makeClient().download(
                    for: TestEndpoint(base: base, path: "/file"), to: URL(fileURLWithPath: path)
                ) { progress in
                    if progress.completedBytes >= Int64(killAt) { kill(getpid(), SIGKILL) }
                }
                print("the download finished before it was killed")
            } catch {
                print("the download failed before it was killed: \(error)")
            }
            exit(0)
        }
    }

    @Test(
        "A download killed at 30 % and at 70 % goes on in the next process: the file byte-identical, at most 1.1× its bytes sent",
        arguments: TransportKind.all, [30, 70])
    func resumesAfterKill(transport: TransportKind, percent: Int) async throws {
        let body = RangeServer.content(count: Self.size)
        let server = try RangeServer(
            .init(body: body, headers: ["ETag": #""v1""#]), pacing: Self.pacing, holdAt: Self.size * percent / 100)
        let directory = try TemporaryDirectory()
        let destination = directory.file("video.bin")
        await Self.downloadAndDie(server, to: destination, over: transport, killAt: Self.size * percent / 100)

        #expect(directory.contents == [".video.bin.partial", ".video.bin.partial.json"], "the partial file and its record stay")
        let left = try #require(DownloadResumeData.partialDownloads(in: directory.url).first)
        #expect(left.bytesReceived >= Int64(Self.size * percent / 100) && left.bytesReceived < Int64(Self.size))
        #expect(left.expectedBytes == Int64(Self.size))

        // A new client, and nothing kept by the app: the destination alone.
        let log = ProgressLog()
        let file = try await transport.makeClient().download(
            for: TestEndpoint(base: server.baseURL, path: "/file"), to: destination, progress: log.handler)
        #expect(try Data(contentsOf: file.fileURL) == body, "byte-identical")
        #expect(file.response.statusCode == 206)
        #expect(server.requests.last == .init(path: "/file", range: "bytes=\(left.bytesReceived)-", ifRange: #""v1""#))
        #expect(log.all.first?.completedBytes == left.bytesReceived, "progress goes on from the bytes kept")
        #expect(server.bytesWritten <= Self.size * 11 / 10, "sent in all: \(server.bytesWritten) bytes of \(Self.size)")
        #expect(directory.contents == ["video.bin"], "no partial file or record left")
    }

    @Test(
        "A download killed at 70 % starts over when the file changed on the server (a new ETag), never splicing the two",
        arguments: TransportKind.all)
    func startsOverWhenTheFileChanged(transport: TransportKind) async throws {
        let old = RangeServer.content(count: Self.size, seed: 1)
        let new = RangeServer.content(count: Self.size / 2, seed: 2)
        let server = try RangeServer(.init(body: old, headers: ["ETag": #""v1""#]), pacing: Self.pacing, holdAt: Self.size * 7 / 10)
        let directory = try TemporaryDirectory()
        let destination = directory.file("video.bin")
        await Self.downloadAndDie(server, to: destination, over: transport, killAt: Self.size * 7 / 10)
        server.replace(with: .init(body: new, headers: ["ETag": #""v2""#]))

        let file = try await transport.makeClient().download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: destination)
        #expect(try Data(contentsOf: file.fileURL) == new, "the new file, whole, and nothing of the old")
        #expect(file.response.statusCode == 200)
        #expect(server.requests.last?.ifRange == #""v1""#, "it asked for the rest of v1 and got all of v2")
        #expect(directory.contents == ["video.bin"])
    }
}
