import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport written from the public protocol alone, answering from memory: proof that every
/// verb of the client is built on the seam, with nothing of URLSession underneath.
private final class MemoryTransport: HTTPTransport {
    /// Answers one request: status, headers and the body's chunks.
    typealias Route = @Sendable (URLRequest, Data?) -> (status: Int, headers: HTTPHeaders, chunks: [Data])

    private let route: Route
    let received = LockedArray<(request: URLRequest, body: Data?)>()

    init(_ route: @escaping Route) {
        self.route = route
    }

    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        var body = request.urlRequest.httpBody
        if let file = request.bodyFile {
            guard let data = try? Data(contentsOf: file) else { throw .invalidRequest("unreadable \(file.path)") }
            // Sent in two halves, as a transport reports what went out.
            request.sendProgress?(Int64(data.count / 2), Int64(data.count))
            request.sendProgress?(Int64(data.count), Int64(data.count))
            body = data
        }
        received.append((request.urlRequest, body))
        let (status, headers, chunks) = route(request.urlRequest, body)
        let (responseBody, writer) = ResponseBody.makeStream(highWatermark: 4)
        Task {
            for chunk in chunks {
                do { try await writer.write(chunk) } catch { return }
            }
            writer.finish()
        }
        return TransportResponse(head: HTTPResponse(statusCode: status, headers: headers, url: request.urlRequest.url), body: responseBody)
    }
}

@Suite("A transport written from the public protocol serves every verb")
struct TransportSeamTests {
    private static let movie = Data(#"{"id":1,"title":"Heat"}"#.utf8)

    private static func client(_ transport: MemoryTransport, interceptors: [any Interceptor] = []) -> NetworkClient {
        NetworkClient(
            transport: transport,
            configuration: ClientConfiguration(interceptors: interceptors, callbackQueue: DispatchQueue(label: "tests.callback")))
    }

    @Test("fetch, send and the completion form decode what the transport answers")
    func buffered() async throws {
        let transport = MemoryTransport { _, _ in
            (200, ["Content-Type": "application/json"], [Data(Self.movie.prefix(5)), Data(Self.movie.dropFirst(5))])
        }
        let client = Self.client(transport)
        #expect(try await client.fetch(TestEndpoint(), as: Movie.self).get() == Movie(id: 1, title: "Heat"))
        #expect(try await client.send(TestEndpoint(), as: Movie.self) == Movie(id: 1, title: "Heat"))
        let result = await withCheckedContinuation { continuation in
            client.fetch(TestEndpoint(), as: Movie.self) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == Movie(id: 1, title: "Heat"))
        #expect(transport.received.count == 3)
    }

    @Test("A download writes the chunks to a file, with progress")
    func download() async throws {
        let chunks = (0..<20).map { Pattern.data(count: 1000, from: $0 * 1000) }
        let transport = MemoryTransport { _, _ in (200, ["Content-Length": "20000"], chunks) }
        let directory = try TemporaryDirectory()
        let log = ProgressLog()
        let file = try await Self.client(transport).download(for: TestEndpoint(), to: directory.file("out.bin"), progress: log.handler)
        #expect(file.byteCount == 20_000)
        #expect(try Data(contentsOf: file.fileURL) == chunks.reduce(Data(), +))
        #expect(log.all.last == TransferProgress(completedBytes: 20_000, expectedBytes: 20_000))
    }

    @Test("A stream is read as lines and as Server-Sent events")
    func stream() async throws {
        let text = ["first\nsec", "ond\n", "data: a\n\nevent: ping\ndata: b\n\n"].map { Data($0.utf8) }
        let transport = MemoryTransport { _, _ in (200, [:], text) }
        let client = Self.client(transport)
        var lines: [String] = []
        for try await line in try await client.stream(for: TestEndpoint()).lines { lines.append(line) }
        #expect(lines == ["first", "second", "data: a", "", "event: ping", "data: b", ""])
        var events: [ServerSentEvent] = []
        for try await event in try await client.stream(for: TestEndpoint()).events { events.append(event) }
        #expect(events == [ServerSentEvent(data: "a"), ServerSentEvent(event: "ping", data: "b")])
    }

    @Test("An upload from a file reaches the transport as a file, with progress ending at its size")
    func upload() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        try Pattern.data(count: 10_000).write(to: file)
        let transport = MemoryTransport { _, body in (200, [:], [Data("\(body?.count ?? -1)".utf8)]) }
        let log = ProgressLog()
        let answer = try await Self.client(transport).upload(
            for: TestEndpoint(method: .post, task: .uploadFile(file)), as: String.self, progress: log.handler)
        #expect(answer == "10000")
        #expect(log.all.last == TransferProgress(completedBytes: 10_000, expectedBytes: 10_000))
        #expect(transport.received.elements.first?.body == Pattern.data(count: 10_000))
    }

    @Test("Interceptors adapt each attempt and retry a 503 over the transport")
    func interceptors() async throws {
        let attempts = Locked(0)
        let transport = MemoryTransport { request, _ in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            let authorized = request.value(forHTTPHeaderField: "Authorization") == "Bearer t"
            return attempt == 1 ? (503, [:], []) : (authorized ? 200 : 401, [:], [Self.movie])
        }
        let policy = RetryPolicy(maximumAttempts: 3, baseDelay: 0, random: { 0 })
        let client = Self.client(transport, interceptors: [BearerTokenAuthenticator { "t" }, policy])
        #expect(try await client.send(TestEndpoint(), as: Movie.self) == Movie(id: 1, title: "Heat"))
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test("A status outside the acceptable codes fails with the transport's body")
    func rejected() async throws {
        let transport = MemoryTransport { _, _ in (404, [:], [Data("no".utf8), Data(" such".utf8)]) }
        let error = await #expect(throws: APIError.self) { try await Self.client(transport).download(for: TestEndpoint()) }
        #expect(error?.statusCode == 404)
        #expect(error?.response?.text == "no such")
    }
}
