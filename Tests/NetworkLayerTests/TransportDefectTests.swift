import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A protocol that answers every request with two response heads, each with a body, as
/// `multipart/x-mixed-replace` does and any `URLProtocol` may.
private final class TwoHeadsProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let client, let url = request.url else { return }
        for (status, body) in [(200, "first"), (201, "second")] {
            if let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:]) {
                client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
                client.urlProtocol(self, didLoad: Data(body.utf8))
            }
        }
        client.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

@Suite("The transport's defects, fixed")
struct TransportDefectTests {
    private static func twoHeadsClient() -> NetworkClient {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [TwoHeadsProtocol.self]
        return NetworkClient(
            transport: URLSessionTransport(configuration: configuration),
            configuration: ClientConfiguration(callbackQueue: DispatchQueue(label: "tests.callback")))
    }

    @Test("A second response head replaces the first when the body is collected")
    func secondHeadCollected() async throws {
        let response = try await Self.twoHeadsClient().response(for: TestEndpoint())
        #expect(response.statusCode == 201)
        #expect(response.text == "second")
    }

    @Test("A second response head fails a download with .invalidResponse and leaves no file")
    func secondHeadDownload() async throws {
        let directory = try TemporaryDirectory()
        await #expect(throws: APIError.invalidResponse) {
            try await Self.twoHeadsClient().download(for: TestEndpoint(), to: directory.file("out"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("A second response head ends a stream with .invalidResponse after the first body")
    func secondHeadStream() async throws {
        let stream = try await Self.twoHeadsClient().stream(for: TestEndpoint())
        #expect(stream.response.statusCode == 200)
        var received = Data()
        await #expect(throws: APIError.invalidResponse) {
            for try await chunk in stream { received.append(chunk) }
        }
        #expect(received.allSatisfy { Data("first".utf8).contains($0) })
    }

    @Test("A timeout of exactly 60 seconds, an endpoint's or a hand-built request's, is kept over the client's")
    func sixtySecondTimeout() async throws {
        let stubs = StubSession()
        for _ in 0..<3 { stubs.register(.get, "/items", .json(#"{"id":1,"title":"Heat"}"#, delay: 0.8)) }
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(timeout: 0.3, callbackQueue: DispatchQueue(label: "tests.callback")))
        #expect(try await client.send(TestEndpoint(timeout: 60), as: Movie.self) == Movie(id: 1, title: "Heat"))
        var request = try TestEndpoint().urlRequest()
        request.timeoutInterval = 60
        #expect(try await client.send(with: request, as: Movie.self) == Movie(id: 1, title: "Heat"))
        await #expect(throws: APIError.timedOut) { try await client.send(TestEndpoint(), as: Movie.self) }
    }

    /// A server that answers with sixteen chunks 250 ms apart (4 s in all), after reading the request's body.
    private static func tricklingServer() throws -> ScriptedServer {
        try ScriptedServer { connection in
            connection.writeHead(headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"])
            for index in 0..<16 {
                guard connection.writeChunk(Data("\(index % 10)".utf8)) else { return }
                Thread.sleep(forTimeInterval: 0.25)
            }
            connection.endChunks()
        }
    }

    @Test(
        "The timeout is idle time for every call: send, an upload through send, and upload(for:) alike outlive it while bytes flow",
        .timeSensitive, arguments: TransportKind.all)
    func oneTimeoutModel(transport: TransportKind) async throws {
        let server = try Self.tricklingServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: 50_000).write(to: file)
        let client = transport.makeClient()
        let base = server.baseURL
        // 4 s of answer under a 3 s timeout: only an idle timeout lets these through. The gaps leave
        // seconds of slack, as the suites beside this one can hold the server's threads back on two cores.
        async let sent = client.send(TestEndpoint(base: base, timeout: 3), as: String.self)
        async let uploadedThroughSend = client.send(
            TestEndpoint(base: base, method: .post, task: .uploadFile(file), timeout: 3), as: String.self)
        async let uploaded = client.upload(
            for: TestEndpoint(base: base, method: .post, task: .uploadFile(file), timeout: 3), as: String.self)
        let whole = "0123456789012345"
        #expect(try await sent == whole)
        #expect(try await uploadedThroughSend == whole)
        #expect(try await uploaded == whole)
    }

    @Test("A silent server times out send and an upload through send at the endpoint's timeout alike", arguments: TransportKind.all)
    func silentTimeouts(transport: TransportKind) async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: 1000).write(to: file)
        let client = transport.makeClient()
        for endpoint in [
            TestEndpoint(base: server.baseURL, timeout: 0.3),
            TestEndpoint(base: server.baseURL, method: .post, task: .uploadFile(file), timeout: 0.3),
        ] {
            let started = Date()
            await #expect(throws: APIError.timedOut) { try await client.send(endpoint, as: Empty.self) }
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 0.3 && elapsed < 10, "timed out after \(elapsed) s")
        }
    }
}

/// A session delegate of the caller's own, which counts the redirects it is asked about.
private final class CountingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let redirects = Locked(0)

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        redirects.withLock { $0 += 1 }
        completionHandler(request)
    }
}

@Suite("A session with a delegate of its own")
struct OwnDelegateTests {
    /// `/start` redirects to `/data`, which answers with 1,000 patterned bytes; a POST's body length is echoed.
    private static func server() throws -> ScriptedServer {
        try ScriptedServer { connection in
            if connection.requestLine.hasPrefix("GET /start ") {
                connection.writeHead(status: 302, headers: ["Location": "/data", "Content-Length": "0"])
            } else if connection.requestLine.hasPrefix("POST ") {
                let body = Data("\(connection.bodyLength)".utf8)
                connection.writeHead(headers: ["Content-Length": "\(body.count)"])
                connection.write(body)
            } else {
                connection.writeHead(headers: ["Content-Length": "1000"])
                connection.write(Pattern.data(count: 1000))
            }
        }
    }

    @Test("downloads, streams, collects and uploads; redirects are followed by the client, not its delegate")
    func everyVerb() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let delegate = CountingDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let client = NetworkClient(transport: URLSessionTransport(session: session))
        let start = TestEndpoint(base: server.baseURL, path: "/start")
        let directory = try TemporaryDirectory()

        let file = try await client.download(for: start, to: directory.file("data.bin"))
        #expect(try Data(contentsOf: file.fileURL) == Pattern.data(count: 1000))
        var streamed = Data()
        for try await chunk in try await client.stream(for: start) { streamed.append(chunk) }
        #expect(streamed == Pattern.data(count: 1000))
        #expect(try await client.response(for: start).body == Pattern.data(count: 1000))
        #expect(delegate.redirects.withLock { $0 } == 0, "the client, not the session's own delegate, followed each redirect")

        let upload = directory.file("upload.bin")
        try Pattern.data(count: 5000).write(to: upload)
        let length = try await client.upload(
            for: TestEndpoint(base: server.baseURL, method: .post, task: .uploadFile(upload)), as: String.self)
        #expect(length == "5000")
    }
}
