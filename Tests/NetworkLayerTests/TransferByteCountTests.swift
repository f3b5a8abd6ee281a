import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `AttemptMetrics.bytesSent` and `bytesReceived` count the bodies as they went, whichever way a call
/// sends and reads them, over every transport.
@Suite("Transfer byte counts")
struct TransferByteCountTests {
    /// 100 KiB.
    static let size = 100 * 1024

    /// Reads each request's body, then answers `/download` with ``size`` bytes, `/stream` with ``size``
    /// bytes in ten chunks, and anything else with `{"length":"<bytes of body read>"}`.
    static func server() throws -> ScriptedServer {
        try ScriptedServer { connection in
            if connection.requestLine.contains("/stream") {
                connection.writeHead(headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"])
                for index in 0..<10 { connection.writeChunk(Pattern.data(count: size / 10, from: index * size / 10)) }
                connection.endChunks()
            } else if connection.requestLine.contains("/download") {
                connection.writeHead(headers: ["Content-Type": "application/octet-stream", "Content-Length": "\(size)"])
                connection.write(Pattern.data(count: size))
            } else {
                let body = Data(#"{"length":"\#(connection.bodyLength)"}"#.utf8)
                connection.writeHead(headers: ["Content-Type": "application/json", "Content-Length": "\(body.count)"])
                connection.write(body)
            }
        }
    }

    /// A file of ``size`` bytes in `directory`.
    private static func fileToUpload(in directory: TemporaryDirectory) throws -> URL {
        let file = directory.file("upload.bin")
        try Pattern.data(count: size).write(to: file)
        return file
    }

    /// The one attempt of the one request `events` saw, after checking there was exactly one.
    private static func onlyAttempt(_ events: EventLog) throws -> AttemptMetrics {
        #expect(events.attempts.count == 1)
        #expect(events.finished.count == 1)
        return try #require(events.attempts.first)
    }

    @Test("A 100 KB multipart form streamed from a temporary file counts every byte sent", arguments: TransportKind.all)
    func multipartUpload(transport: TransportKind) async throws {
        let server = try Self.server()
        var form = MultipartFormData()
        form.encodingMemoryThreshold = 1024
        form.append(Pattern.data(count: Self.size), name: "file", filename: "a.bin", contentType: "application/octet-stream")
        let events = EventLog()
        let answer = try await transport.makeClient(interceptors: [events]).upload(
            for: TestEndpoint(base: server.baseURL, path: "/echo", method: .post, task: .uploadMultipart(form)), as: Data.self)
        let attempt = try Self.onlyAttempt(events)
        let length = try form.contentLength()
        #expect(length > Int64(Self.size))
        #expect(attempt.bytesSent == Int(length))
        #expect(attempt.bytesReceived == answer.count)
        #expect(String(decoding: answer, as: UTF8.self) == #"{"length":"\#(length)"}"#)
    }

    @Test("A 100 KB file upload, and a 100 KB body in memory, count every byte sent", arguments: TransportKind.all)
    func fileAndMemoryUploads(transport: TransportKind) async throws {
        let server = try Self.server()
        let directory = try TemporaryDirectory()
        let file = try Self.fileToUpload(in: directory)
        let events = EventLog()
        let client = transport.makeClient(interceptors: [events])
        let fromFile = try await client.send(
            TestEndpoint(base: server.baseURL, path: "/echo", method: .put, task: .uploadFile(file, contentType: "application/x-test")),
            as: Data.self)
        let inMemory = try await client.send(
            TestEndpoint(
                base: server.baseURL, path: "/echo", method: .post,
                task: .requestData(Pattern.data(count: Self.size), contentType: "application/octet-stream")),
            as: Data.self)
        #expect(events.attempts.map(\.bytesSent) == [Self.size, Self.size])
        #expect(events.attempts.map(\.bytesReceived) == [fromFile.count, inMemory.count])
    }

    @Test("A 100 KB httpBodyStream counts every byte sent", arguments: TransportKind.all)
    func bodyStream(transport: TransportKind) async throws {
        let server = try Self.server()
        var request = URLRequest(url: try #require(URL(string: server.baseURL + "/echo")))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Pattern.data(count: Self.size))
        let events = EventLog()
        let answer = try await transport.makeClient(interceptors: [events]).send(with: request, as: Data.self)
        let attempt = try Self.onlyAttempt(events)
        #expect(String(decoding: answer, as: UTF8.self) == #"{"length":"\#(Self.size)"}"#)
        #expect(attempt.bytesSent == Self.size)
        #expect(attempt.bytesReceived == answer.count)
    }

    @Test("A 100 KB download written to a file counts every byte received", arguments: TransportKind.all)
    func download(transport: TransportKind) async throws {
        let server = try Self.server()
        let directory = try TemporaryDirectory()
        let events = EventLog()
        let file = try await transport.makeClient(interceptors: [events]).download(
            for: TestEndpoint(base: server.baseURL, path: "/download"), to: directory.file("download.bin"))
        let attempt = try Self.onlyAttempt(events)
        #expect(file.byteCount == Int64(Self.size))
        #expect(attempt.bytesReceived == Self.size)
        #expect(attempt.bytesSent == 0)
    }

    @Test("A 100 KB body collected in memory counts every byte received, with or without progress", arguments: TransportKind.all)
    func collected(transport: TransportKind) async throws {
        let server = try Self.server()
        let events = EventLog()
        let client = transport.makeClient(interceptors: [events])
        let endpoint = TestEndpoint(base: server.baseURL, path: "/download")
        let data = try await client.send(endpoint, as: Data.self)
        let response = try await client.response(for: endpoint, progress: { _ in })
        #expect(data.count == Self.size)
        #expect(response.body.count == Self.size)
        #expect(events.attempts.map(\.bytesReceived) == [Self.size, Self.size])
    }

    @Test("A gzip body counts its bytes as decoded, not as on the wire, over every transport alike", arguments: TransportKind.all)
    func decodedBytes(transport: TransportKind) async throws {
        let (server, json) = try await CompressedBodyTests.compressedJSON()
        let events = EventLog()
        let data = try await transport.makeClient(interceptors: [events]).send(
            Request<Data>(base: server.baseURL, path: "/", options: CallOptions(timeout: 30)))
        #expect(data == json)
        #expect(try Self.onlyAttempt(events).bytesReceived == json.count)
    }

    @Test("A stream's attempt is reported when the stream ends, with every byte it read", arguments: TransportKind.all)
    func stream(transport: TransportKind) async throws {
        let server = try Self.server()
        let events = EventLog()
        let stream = try await transport.makeClient(interceptors: [events]).stream(for: TestEndpoint(base: server.baseURL, path: "/stream"))
        #expect(events.attempts.isEmpty, "the head has arrived, the body not yet")
        #expect(events.finished.isEmpty)
        var read = 0
        for try await chunk in stream { read += chunk.count }
        #expect(read == Self.size)
        let attempt = try Self.onlyAttempt(events)
        #expect(attempt.bytesReceived == Self.size)
        #expect(attempt.error == nil)
        #expect(events.finished.first?.error == nil)
    }

    @Test("A stream dropped before its end is reported as cancelled, with what it read")
    func droppedStream() async throws {
        let transport = StubTransport()
        transport.register(.get, "/items", .chunked([Data("ab".utf8), Data("cd".utf8)]))
        let events = EventLog()
        let client = NetworkClient(transport: transport, configuration: ClientConfiguration(interceptors: [events]))
        var stream: ResponseStream? = try await client.stream(for: TestEndpoint())
        var iterator = stream?.makeAsyncIterator()
        #expect(try await iterator?.next() == Data("ab".utf8))
        #expect(events.attempts.isEmpty)
        stream = nil
        iterator = nil
        let attempt = try Self.onlyAttempt(events)
        #expect(attempt.bytesReceived == 2)
        #expect(attempt.error == .cancelled)
        #expect(events.finished.first?.error == .cancelled)
    }

    @Test("NetworkLogger's line shows the bytes of an upload and of a download", arguments: TransportKind.all)
    func loggerLine(transport: TransportKind) async throws {
        let server = try Self.server()
        let directory = try TemporaryDirectory()
        let file = try Self.fileToUpload(in: directory)
        let lines = LockedArray<String>()
        let client = transport.makeClient(interceptors: [NetworkLogger(level: .info, sink: { lines.append($0) })])
        let answer = try await client.upload(
            for: TestEndpoint(
                base: server.baseURL, path: "/echo", method: .post, task: .uploadFile(file, contentType: "application/x-test")),
            as: Data.self)
        _ = try await client.download(for: TestEndpoint(base: server.baseURL, path: "/download"), to: directory.file("download.bin"))
        #expect(lines.count == 2)
        #expect(lines.elements.first?.hasSuffix(", sent 100.0 KB, received \(answer.count) B") == true, "\(lines.elements)")
        #expect(lines.elements.last?.hasSuffix(", sent 0 B, received 100.0 KB") == true, "\(lines.elements)")
    }
}
