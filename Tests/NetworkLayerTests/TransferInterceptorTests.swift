import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Interceptors on transfers")
struct TransferInterceptorTests {
    /// A server that answers its first `failures` requests with 503 and the next ones with what it
    /// received: the request line, the adapter's header and the body's length.
    static func flakyEchoServer(failures: Int) throws -> (ScriptedServer, Counter) {
        let served = Counter()
        let server = try ScriptedServer { connection in
            if served.increment() <= failures {
                connection.writeHead(status: 503, headers: ["Content-Length": "0"])
                return
            }
            let summary = [
                "length": "\(connection.bodyLength)",
                "adapted": connection.headers["x-adapted"] ?? "none",
            ]
            let body = (try? JSONEncoder().encode(summary)) ?? Data()
            connection.writeHead(headers: ["Content-Type": "application/json", "Content-Length": "\(body.count)"])
            connection.write(body)
        }
        return (server, served)
    }

    @Test("A download is adapted, retried after a 503, and its events name both attempts")
    func downloadRetries() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .text("the error page", statusCode: 503))
        stubs.register(.get, "/items", .text("second"))
        let adapter = HeaderAdapter(header: "X-Adapted", value: "yes")
        let events = EventLog()
        let directory = try TemporaryDirectory()
        let destination = directory.file("body.txt")

        let file = try await client(stubs, [adapter, ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry }, events])
            .download(for: TestEndpoint(), to: destination)

        #expect(try String(contentsOf: file.fileURL, encoding: .utf8) == "second")
        #expect(stubs.requests.map { $0.headers["X-Adapted"] } == ["yes", "yes"])
        #expect(events.attempts.map { $0.response?.statusCode } == [503, 200])
        #expect(events.finished.first?.attempts == 2)
        #expect(directory.contents == ["body.txt"], "the failed attempt's body was written nowhere")
    }

    @Test("A stream is adapted and retried until its status is accepted; its first element comes from the accepted attempt")
    func streamRetries() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .text("an error line\n", statusCode: 503))
        stubs.register(.get, "/items", .text("first line\nsecond line\n"))
        let adapter = HeaderAdapter(header: "X-Adapted", value: "yes")
        let events = EventLog()

        var lines: [String] = []
        let stream = try await client(
            stubs, [adapter, ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry }, events]
        ).stream(for: TestEndpoint())
        for try await line in stream.lines { lines.append(line) }

        #expect(lines == ["first line", "second line"])
        #expect(stubs.requests.map { $0.headers["X-Adapted"] } == ["yes", "yes"])
        #expect(events.finished.first?.attempts == 2)
    }

    @Test("A failing adapter stops a download before anything is sent")
    func downloadAdapterFailure() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .text("never"))
        let directory = try TemporaryDirectory()
        await #expect(throws: APIError.adaptationFailed(interceptor: "ThrowingAdapter", error: ThrowingAdapter.NoToken())) {
            try await client(stubs, [ThrowingAdapter()]).download(for: TestEndpoint(), to: directory.file("x"))
        }
        #expect(stubs.requests.isEmpty)
        #expect(directory.contents.isEmpty)
    }

    @Test("An upload from a file is retried with its whole body, through upload(for:) and send", arguments: TransportKind.all)
    func uploadFileRetries(transport: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: 300_000).write(to: file)
        for viaSend in [false, true] {
            let (server, served) = try Self.flakyEchoServer(failures: 1)
            let endpoint = TestEndpoint(base: server.baseURL, method: .put, task: .uploadFile(file))
            let client = transport.makeClient(interceptors: [
                HeaderAdapter(header: "X-Adapted", value: "yes"),
                ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry },
            ])
            let echo: [String: String] =
                viaSend ? try await client.send(endpoint) : try await client.upload(for: endpoint, progress: ProgressLog().handler)
            #expect(echo == ["length": "300000", "adapted": "yes"])
            #expect(served.count == 2)
        }
    }

    @Test(
        "A form written to a temporary file outlives a failed attempt of a stream, for the retry to send whole",
        arguments: TransportKind.all)
    func streamedFormRetries(transport: TransportKind) async throws {
        let (server, served) = try Self.flakyEchoServer(failures: 1)
        var form = MultipartFormData()
        form.encodingMemoryThreshold = 1024
        form.append(Pattern.data(count: 200_000), name: "blob", filename: "blob.bin")
        let client = transport.makeClient(interceptors: [ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry }])

        var body = Data()
        for try await chunk in try await client.stream(
            for: TestEndpoint(base: server.baseURL, method: .post, task: .uploadMultipart(form)))
        {
            body.append(chunk)
        }

        let echo = try JSONDecoder().decode([String: String].self, from: body)
        #expect(echo["length"] == "\(try form.contentLength())", "the retry sent the whole form again")
        #expect(served.count == 2)
    }
}

/// An adapter that always fails.
private struct ThrowingAdapter: Interceptor {
    struct NoToken: Error, CustomStringConvertible {
        var description: String { "no token" }
    }

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        throw NoToken()
    }
}
