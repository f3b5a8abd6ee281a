import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Resumable downloads")
struct ResumableDownloadTests {
    /// Retries at once, up to three attempts.
    static let retries = RetryPolicy(maximumAttempts: 3, random: { 0 })

    @Test("A download dropped at 40 % and 80 % finishes through RetryPolicy, sending each byte about once", arguments: TransportKind.all)
    func resumesThroughRetries(transport: TransportKind) async throws {
        let size = 50 * 1024 * 1024
        let body = RangeServer.content(count: size)
        // `etag` in lower case: the client reads headers in any case.
        let server = try RangeServer(.init(body: body, headers: ["etag": #""v1""#]), dropsAt: [size * 4 / 10, size * 8 / 10])
        let directory = try TemporaryDirectory()
        let log = ProgressLog()
        let client = transport.makeClient(interceptors: [Self.retries])
        let file = try await client.download(
            for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("big.bin"), progress: log.handler)
        #expect(file.byteCount == Int64(size))
        #expect(try Data(contentsOf: file.fileURL) == body, "the right bytes")
        #expect(server.bytesWritten < size + 1024 * 1024, "about 50 MB sent in all, not 100+: \(server.bytesWritten)")
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(requests.first?.range == nil)
        #expect(
            requests.dropFirst().allSatisfy { $0.range?.hasPrefix("bytes=") == true && $0.range != "bytes=0-" && $0.ifRange == #""v1""# })
        #expect(log.isMonotonic)
        #expect(log.all.last == TransferProgress(completedBytes: Int64(size), expectedBytes: Int64(size)))
        #expect(directory.contents == ["big.bin"], "no partial file left")
    }

    @Test("A body that changed between attempts (a new ETag) starts over and ends with the new content", arguments: TransportKind.all)
    func restartsWhenTheBodyChanged(transport: TransportKind) async throws {
        let old = RangeServer.content(count: 1_000_000, seed: 1)
        let new = RangeServer.content(count: 1_200_000, seed: 2)
        let server = try RangeServer(
            .init(body: old, headers: ["ETag": #""v1""#]), dropsAt: [400_000], afterDrop: .init(body: new, headers: ["ETag": #""v2""#]))
        let directory = try TemporaryDirectory()
        let log = ProgressLog()
        let client = transport.makeClient(interceptors: [Self.retries])
        let file = try await client.download(
            for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("x"), progress: log.handler)
        #expect(try Data(contentsOf: file.fileURL) == new)
        #expect(file.response.statusCode == 200)
        #expect(server.requests.map(\.ifRange) == [nil, #""v1""#], "the second asked for the rest of v1, and got all of v2")
        #expect(log.isMonotonic)
        #expect(log.all.last?.completedBytes == 1_200_000)
    }

    @Test("An attempt a middleware answers itself, after a resumed one, is written whole", arguments: TransportKind.all)
    func middlewareAnswerAfterResumedAttempt(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 1_000_000)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), dropsAt: [300_000, 600_000])
        let directory = try TemporaryDirectory()
        let client = transport.makeClient(interceptors: [Self.retries, ThirdAttemptAnswer(body: body)])
        let file = try await client.download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("x"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.count == 2, "the third attempt never reached the server")
    }

    /// Resume data for `bytes` of a 100,000-byte body tagged `"v1"` on `server`, in `partial`.
    static func resumeData(of server: RangeServer, bytes: Int64, in partial: URL) throws -> DownloadResumeData {
        DownloadResumeData(
            url: try server.url(), entityTag: #""v1""#, lastModified: nil, bytesReceived: bytes, expectedBytes: 100_000,
            partialFileURL: partial)
    }

    /// Resumes `resumeData` from `server`'s `/file` over `transport`, to the file `x` of `directory`.
    static func resume(
        _ resumeData: DownloadResumeData, from server: RangeServer, over transport: TransportKind, to directory: TemporaryDirectory
    ) async throws -> DownloadedFile {
        try await transport.makeClient().download(
            resuming: resumeData, for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("x"))
    }

    /// Answers the third attempt itself, with the whole body.
    struct ThirdAttemptAnswer: Interceptor {
        let body: Data

        func intercept(
            _ request: URLRequest,
            context: RequestContext,
            next: (URLRequest) async throws(APIError) -> TransportResponse
        ) async throws(APIError) -> TransportResponse {
            guard context.attempt == 3 else { return try await next(request) }
            return TransportResponse(HTTPResponse(statusCode: 200, headers: ["Content-Length": "\(body.count)"], body: body))
        }
    }

    @Test("A server without ranges (always 200) gets the whole body again, and the file is right", arguments: TransportKind.all)
    func restartsWithoutRangeSupport(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 1_000_000)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#], supportsRanges: false), dropsAt: [600_000])
        let directory = try TemporaryDirectory()
        let client = transport.makeClient(interceptors: [Self.retries])
        let file = try await client.download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("x"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.range?.hasPrefix("bytes=") == true, "it asked for the rest")
    }

    @Test("A weak ETag never goes in If-Range: Last-Modified does", arguments: TransportKind.all)
    func weakETagUsesLastModified(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 1_000_000)
        let date = "Tue, 24 Nov 2026 10:00:00 GMT"
        let server = try RangeServer(.init(body: body, headers: ["ETag": #"W/"v1""#, "Last-Modified": date]), dropsAt: [500_000])
        let directory = try TemporaryDirectory()
        let client = transport.makeClient(interceptors: [Self.retries])
        let file = try await client.download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("x"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.last?.ifRange == date)
        #expect(server.requests.last?.range?.hasPrefix("bytes=") == true)
        #expect(server.bytesWritten < 1_100_000, "resumed, not sent again")
    }

    @Test("With a weak ETag and no Last-Modified nothing is resumed: the retry asks for the whole body", arguments: TransportKind.all)
    func weakETagAloneDoesNotResume(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 1_000_000)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #"W/"v1""#]), dropsAt: [500_000])
        let directory = try TemporaryDirectory()
        let client = transport.makeClient(interceptors: [Self.retries])
        let file = try await client.download(for: TestEndpoint(base: server.baseURL, path: "/file"), to: directory.file("x"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.map(\.range) == [nil, nil])
        #expect(server.requests.map(\.ifRange) == [nil, nil])
    }

    @Test("A failure's resume data, stored, resumes in a new client from a new URL", arguments: TransportKind.all)
    func resumesExplicitlyFromNewURL(transport: TransportKind) async throws {
        let size = 2_000_000
        let body = RangeServer.content(count: size)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), dropsAt: [size * 4 / 10])
        let directory = try TemporaryDirectory()
        let destination = directory.file("movie.bin")
        let error = await #expect(throws: APIError.self) {
            try await transport.makeClient().download(
                resuming: nil, for: TestEndpoint(base: server.baseURL, path: "/signed-1"), to: destination)
        }
        guard case .downloadInterrupted(let cause, let resumeData)? = error else {
            Issue.record("expected downloadInterrupted, got \(String(describing: error))")
            return
        }
        if case .requestFailed(let urlError) = cause {
            #expect(urlError.code == .networkConnectionLost)
        } else {
            Issue.record("expected the lost connection, got \(cause)")
        }
        let received = resumeData.bytesReceived
        #expect(received > 0 && received <= Int64(size * 4 / 10))
        #expect(resumeData.expectedBytes == Int64(size))
        #expect(resumeData.entityTag == #""v1""#)
        #expect(FileManager.default.fileExists(atPath: resumeData.partialFileURL.path), "the partial file is kept")
        let stored = try JSONEncoder().encode(resumeData)
        let restored = try JSONDecoder().decode(DownloadResumeData.self, from: stored)

        let log = ProgressLog()
        let file = try await transport.makeClient().download(
            resuming: restored, for: TestEndpoint(base: server.baseURL, path: "/signed-2"), to: destination, progress: log.handler)
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(file.response.statusCode == 206)
        #expect(server.requests.last == RangeServer.Request(path: "/signed-2", range: "bytes=\(received)-", ifRange: #""v1""#))
        #expect(server.bytesWritten < size + 10_000)
        #expect(log.all.first?.completedBytes == received, "progress goes on from where it stopped")
        #expect(log.isMonotonic)
        #expect(directory.contents == ["movie.bin"], "the partial file became the file")
    }

    @Test("Resume data resumes through a redirect: the resumption asks each hop for the rest", arguments: TransportKind.all)
    func resumesThroughRedirect(transport: TransportKind) async throws {
        let size = 1_000_000
        let body = RangeServer.content(count: size)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), dropsAt: [size / 2])
        let target = try server.url("/signed")
        let redirector = try RouteServer { _, _ in RouteServer.Answer(status: 302, headers: ["Location": target.absoluteString]) }
        let directory = try TemporaryDirectory()
        let destination = directory.file("movie.bin")
        let client = transport.makeClient()
        let error = await #expect(throws: APIError.self) {
            try await client.download(resuming: nil, for: TestEndpoint(base: redirector.baseURL, path: "/movie"), to: destination)
        }
        guard case .downloadInterrupted(_, let resumeData)? = error else {
            Issue.record("expected downloadInterrupted, got \(String(describing: error))")
            return
        }
        let file = try await client.download(
            resuming: resumeData, for: TestEndpoint(base: redirector.baseURL, path: "/movie"), to: destination)
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(file.response.statusCode == 206)
        let received = resumeData.bytesReceived
        #expect(server.requests.last == RangeServer.Request(path: "/signed", range: "bytes=\(received)-", ifRange: #""v1""#))
        #expect(redirector.received.count == 2)
        #expect(server.bytesWritten < size + 10_000)
    }

    @Test("Resume data whose partial file is gone starts over, from the first byte", arguments: TransportKind.all)
    func missingPartialFileStartsOver(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 100_000)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]))
        let directory = try TemporaryDirectory()
        let resumeData = try Self.resumeData(of: server, bytes: 50_000, in: directory.file(".gone.\(UUID().uuidString).partial"))
        let file = try await Self.resume(resumeData, from: server, over: transport, to: directory)
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.map(\.range) == [nil])
    }

    @Test("Resume data naming a file that is no partial file leaves that file alone, and starts over", arguments: TransportKind.all)
    func foreignPartialFileIsLeftAlone(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 100_000)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]))
        let directory = try TemporaryDirectory()
        let victim = directory.file("notes.txt")
        try Data("keep me, please".utf8).write(to: victim)
        let resumeData = try Self.resumeData(of: server, bytes: 4, in: victim)
        let file = try await Self.resume(resumeData, from: server, over: transport, to: directory)
        resumeData.discard()
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.map(\.range) == [nil])
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me, please")
        // A hidden file that does not end in `.partial` (a record, say) is not a partial file either.
        let hidden = directory.file(".notes.partial.json")
        try Data("keep me too".utf8).write(to: hidden)
        try Self.resumeData(of: server, bytes: 4, in: hidden).discard()
        #expect(try String(contentsOf: hidden, encoding: .utf8) == "keep me too")
    }

    @Test("A 416 for a file that holds the whole body already completes it without a body", arguments: TransportKind.all)
    func unsatisfiableRangeOfACompleteFile(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 100_000)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]))
        let directory = try TemporaryDirectory()
        let partial = directory.file(".x.\(UUID().uuidString).partial")
        try body.write(to: partial)
        let resumeData = try Self.resumeData(of: server, bytes: 100_000, in: partial)
        let file = try await Self.resume(resumeData, from: server, over: transport, to: directory)
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(file.byteCount == 100_000)
        #expect(server.requests.map(\.range) == ["bytes=100000-"])
        #expect(directory.contents == ["x"])
    }

    @Test("A 206 whose Content-Range does not continue the file is let go, and the whole body asked for", arguments: TransportKind.all)
    func hostileContentRangeStartsOver(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 100_000)
        let hostile = [
            "bytes 0-99999/100000",  // not where the file stopped
            "bytes 50000-99999/200000",  // another length
            "bytes 50000-40000/100000",  // ends before it starts
            "bytes 50000-99999999999999999999999/100000",  // past Int64
            "bytes 50000-99999/99999999999999999999999",
            "bytes 50000-99998/100000",  // not to the end
            "items 50000-99999/100000",
            "bytes -50000-99999/100000",
            "garbage",
        ]
        for contentRange in hostile {
            let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#], contentRange: contentRange))
            let directory = try TemporaryDirectory()
            let partial = directory.file(".x.\(UUID().uuidString).partial")
            try body.prefix(50_000).write(to: partial)
            let resumeData = try Self.resumeData(of: server, bytes: 50_000, in: partial)
            let file = try await Self.resume(resumeData, from: server, over: transport, to: directory)
            #expect(try Data(contentsOf: file.fileURL) == body, "\(contentRange)")
            #expect(server.requests.map(\.range) == ["bytes=50000-", nil], "\(contentRange)")
        }
    }

    @Test("Cancelling deletes the partial file, unless the caller keeps the resume data", .timeSensitive, arguments: TransportKind.all)
    func cancellingKeepsResumeDataOnlyWhenAsked(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Length": "\(10 * 1024 * 1024)", "ETag": #""v1""#])
            connection.write(Pattern.data(count: 1024 * 1024))
            connection.waitUntilClosed()
        }
        let client = transport.makeClient()
        for keepsResumeData in [false, true] {
            let directory = try TemporaryDirectory()
            let log = ProgressLog()
            let endpoint = TestEndpoint(base: server.baseURL, timeout: 60)
            let task = Task { () async throws(APIError) -> DownloadedFile in
                keepsResumeData
                    ? try await client.download(resuming: nil, for: endpoint, to: directory.file("big.bin"), progress: log.handler)
                    : try await client.download(for: endpoint, to: directory.file("big.bin"), progress: log.handler)
            }
            #expect(await eventually { (log.all.last?.completedBytes ?? 0) >= 512 * 1024 }, "part of the body arrived")
            task.cancel()
            let error = await #expect(throws: APIError.self) { try await task.value }
            if keepsResumeData {
                guard case .downloadInterrupted(.cancelled, let resumeData)? = error else {
                    Issue.record("expected downloadInterrupted(.cancelled, …), got \(String(describing: error))")
                    continue
                }
                #expect(directory.contents == [".big.bin.partial", ".big.bin.partial.json"], "the partial file and its record stay")
                #expect(try Data(contentsOf: resumeData.partialFileURL).count == Int(resumeData.bytesReceived))
                resumeData.discard()
                #expect(directory.contents.isEmpty, "discard deletes both")
            } else {
                #expect(error == .cancelled)
                #expect(directory.contents.isEmpty, "the partial file is gone")
            }
        }
    }
}
