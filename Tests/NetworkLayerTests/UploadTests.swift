import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Uploads")
struct UploadTests {
    /// A server that reads each request's body and answers with what it saw.
    static func echoServer() throws -> ScriptedServer {
        try ScriptedServer { connection in
            let summary = [
                "length": "\(connection.bodyLength)",
                "contentLength": connection.headers["content-length"] ?? "none",
                "contentType": connection.headers["content-type"] ?? "none",
                "transferEncoding": connection.headers["transfer-encoding"] ?? "none",
                "request": connection.requestLine,
            ]
            let body = (try? JSONEncoder().encode(summary)) ?? Data()
            connection.writeHead(headers: ["Content-Type": "application/json", "Content-Length": "\(body.count)"])
            connection.write(body)
        }
    }

    @Test("An upload task's request has its Content-Type and query, and no body: the client streams it")
    func requestBuilding() throws {
        let file = URL(fileURLWithPath: "/tmp/poster.jpg")
        let fileRequest = try TestEndpoint(
            method: .put, task: .uploadFile(file, contentType: "image/jpeg", urlParameters: ["v": 2])
        ).urlRequest()
        #expect(fileRequest.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(query(of: fileRequest) == "v=2")
        #expect(fileRequest.httpBody == nil && fileRequest.httpBodyStream == nil)

        let form = MultipartFormData(boundary: "xyz")
        let formRequest = try TestEndpoint(method: .post, headers: ["Content-Type": "text/plain"], task: .uploadMultipart(form))
            .urlRequest()
        #expect(formRequest.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=xyz")
        #expect(formRequest.httpBody == nil)
    }

    @Test("A GET or HEAD cannot carry an upload", arguments: [HTTPMethod.get, .head])
    func getWithUpload(method: HTTPMethod) {
        let error = #expect(throws: APIError.self) {
            try TestEndpoint(method: method, task: .uploadFile(URL(fileURLWithPath: "/tmp/x"))).urlRequest()
        }
        #expect(error?.invalidRequestReason?.contains("cannot carry a body") == true)
    }

    @Test("send encodes a small form in memory: the stub receives exactly the encoded bytes")
    func smallFormThroughSend() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.post, "/items", .json(#"{"id":1,"title":"Heat"}"#))
        var form = MultipartFormData()
        form.append("Heat", name: "title")
        form.append(Data("poster".utf8), name: "poster", filename: "heat.jpg", contentType: "image/jpeg")
        let movie = try await stubbed.client.send(TestEndpoint(method: .post, task: .uploadMultipart(form)), as: Movie.self)
        #expect(movie == Movie(id: 1, title: "Heat"))
        let recorded = try #require(stubbed.stubs.requests.first)
        #expect(recorded.body == (try form.encoded()))
        #expect(recorded.headers["Content-Type"] == form.contentType)
    }

    /// A transport that records whether each request's body came from a file.
    private struct BodyFileRecorder: HTTPTransport {
        let fromFile = Locked<[Bool]>([])

        func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
            fromFile.withLock { $0.append(request.bodyFile != nil) }
            return TransportResponse(head: HTTPResponse(statusCode: 204, url: request.urlRequest.url))
        }
    }

    @Test("By default a form of text fields is encoded in memory, and one with a 2 MB part goes through a temporary file")
    func defaultMemoryThreshold() async throws {
        let recorder = BodyFileRecorder()
        let client = NetworkClient(transport: recorder)
        var small = MultipartFormData()
        small.append("Heat", name: "title")
        var large = small
        large.append(Pattern.data(count: 2_000_000), name: "poster", filename: "heat.jpg", contentType: "image/jpeg")
        for form in [small, large] {
            _ = try await client.send(TestEndpoint(method: .post, task: .uploadMultipart(form)), as: Empty.self)
        }
        #expect(recorder.fromFile.withLock { $0 } == [false, true])
    }

    @Test(
        "A form over its memory threshold is written to a temporary file and streamed with its Content-Length", arguments: TransportKind.all
    )
    func largeFormFromFile(transport: TransportKind) async throws {
        let server = try Self.echoServer()
        let directory = try TemporaryDirectory()
        let part = directory.file("part.bin")
        try Pattern.data(count: 1024 * 1024).write(to: part)
        var form = MultipartFormData()
        form.encodingMemoryThreshold = 1024
        form.append("v", name: "k")
        form.append(fileAt: part, name: "file")
        let echo = try await transport.makeClient().upload(
            for: TestEndpoint(base: server.baseURL, method: .post, task: .uploadMultipart(form)), as: [String: String].self)
        let length = try form.contentLength()
        #expect(echo["length"] == "\(length)")
        #expect(echo["contentLength"] == "\(length)")
        #expect(echo["transferEncoding"] == "none")
        #expect(echo["contentType"] == form.contentType)
    }

    @Test("A file is streamed with its size as Content-Length, and progress only grows and ends at 100 %", arguments: TransportKind.all)
    func fileWithProgress(transport: TransportKind) async throws {
        let server = try Self.echoServer()
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: 1024 * 1024 + 5).write(to: file)
        let log = ProgressLog()
        let echo = try await transport.makeClient().upload(
            for: TestEndpoint(base: server.baseURL, method: .put, task: .uploadFile(file, contentType: "application/x-test")),
            as: [String: String].self,
            progress: log.handler
        )
        #expect(echo["length"] == "\(1024 * 1024 + 5)")
        #expect(echo["contentLength"] == "\(1024 * 1024 + 5)")
        #expect(echo["contentType"] == "application/x-test")
        #expect(log.all.count > 2, "reported along the way, not only at the end")
        #expect(log.isMonotonic)
        #expect(log.all.last == TransferProgress(completedBytes: 1024 * 1024 + 5, expectedBytes: 1024 * 1024 + 5))
        #expect(log.all.last?.fractionCompleted == 1)
    }

    @Test("send streams an upload task's file too, and a missing file fails before anything is sent", arguments: TransportKind.all)
    func sendFileAndMissingFile(transport: TransportKind) async throws {
        let server = try Self.echoServer()
        let directory = try TemporaryDirectory()
        let file = directory.file("small.txt")
        try Data("hello".utf8).write(to: file)
        let client = transport.makeClient()
        let echo = try await client.send(
            TestEndpoint(base: server.baseURL, method: .post, task: .uploadFile(file)), as: [String: String].self)
        #expect(echo["length"] == "5")
        #expect(echo["contentType"] == "application/octet-stream")

        let missing = TestEndpoint(base: server.baseURL, method: .post, task: .uploadFile(directory.file("missing.txt")))
        let error = await #expect(throws: APIError.self) { try await client.send(missing, as: Empty.self) }
        #expect(error?.invalidRequestReason?.contains("missing.txt") == true)
        #expect(server.accepted == 1, "the failed upload sent nothing")
    }

    @Test("A 307 sends an uploaded file again, to the new location", arguments: TransportKind.all)
    func redirectSendsFileAgain(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            if connection.requestLine.hasPrefix("POST /first ") {
                connection.writeHead(status: 307, headers: ["Location": "/second", "Content-Length": "0"])
            } else {
                let body = Data("\(connection.requestLine) \(connection.bodyLength)".utf8)
                connection.writeHead(headers: ["Content-Length": "\(body.count)"])
                connection.write(body)
            }
        }
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: 100_000).write(to: file)
        let answer = try await transport.makeClient().upload(
            for: TestEndpoint(base: server.baseURL, path: "/first", method: .post, task: .uploadFile(file)), as: String.self)
        #expect(answer == "POST /second HTTP/1.1 100000")
    }

    @Test(
        "A streamed body that a redirect asks for again is never sent again in part: the 307 comes back",
        arguments: TransportKind.all)
    func streamedBodyRedirectedEarly(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            if connection.requestLine.hasPrefix("POST /first ") {
                // At once, before the chunked body is read, as a server that redirects by path alone
                // does; then it takes the rest, so that closing the socket does not reset the upload.
                connection.writeHead(status: 307, headers: ["Location": "/second", "Content-Length": "0"])
                connection.waitUntilClosed(timeout: 10)
            } else {
                connection.writeHead(headers: ["Content-Length": "6"])
                connection.write(Data("second".utf8))
            }
        }
        var request = URLRequest(url: try #require(URL(string: server.baseURL + "/first")))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Pattern.data(count: 4 * 1024 * 1024))
        let error = await #expect(throws: APIError.self) { try await transport.makeClient().response(with: request) }
        // A stream is read once: the client follows no redirect of it, and the 307 comes back.
        #expect(error?.statusCode == 307, "\(String(describing: error))")
    }
}
