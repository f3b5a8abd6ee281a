import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Streaming responses from httpbin", .httpbin)
struct StreamingHTTPBinTests {

    struct StreamedEcho: Decodable, Equatable {
        let id: Int
        let url: String
    }

    @Test("/stream/N reads as NDJSON, each line decoded", arguments: TransportKind.all)
    func ndjson(transport: TransportKind) async throws {
        let client = transport.makeClient()
        var items: [StreamedEcho] = []
        for try await item in try await client.stream(for: try HTTPBinEndpoint("/stream/5")).lines(as: StreamedEcho.self) {
            items.append(item)
        }
        #expect(items.map(\.id) == [0, 1, 2, 3, 4])
        #expect(items.allSatisfy { $0.url.hasSuffix("/stream/5") })
    }

    @Test("/drip arrives a byte at a time over two seconds, and a shorter idle timeout does not cut it off", arguments: TransportKind.all)
    func drip(transport: TransportKind) async throws {
        let client = transport.makeClient()
        // 4 bytes 0.5 s apart under a 1.5 s timeout: an idle timeout lets them all through.
        var endpoint = try HTTPBinEndpoint("/drip", timeout: 1.5)
        endpoint.task = .requestParameters(urlParameters: ["duration": 2, "numbytes": 4, "delay": 0, "code": 200])
        let stopwatch = Stopwatch()
        var arrivals: [Double] = []
        var body = Data()
        for try await chunk in try await client.stream(for: endpoint) {
            arrivals.append(stopwatch.seconds)
            body.append(chunk)
        }
        #expect(body == Data("****".utf8))
        #expect(arrivals.count >= 2, "the bytes came in separate chunks")
        #expect((arrivals.last ?? 0) - (arrivals.first ?? 0) >= 0.5, "as they were sent, not all at the end")
        let sent: Result<Data, APIError> = await client.fetch(endpoint)
        #expect(try sent.get() == Data("****".utf8), "send follows the same idle timeout")
    }

    @Test("A 401 with a Basic challenge fails a stream and a download with the 401 instead of hanging", arguments: TransportKind.all)
    func basicChallenge(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint("/basic-auth/user/passwd", timeout: 10)
        let streamError = await #expect(throws: APIError.self) { try await client.stream(for: endpoint) }
        #expect(streamError?.statusCode == 401)
        let directory = try TemporaryDirectory()
        let downloadError = await #expect(throws: APIError.self) { try await client.download(for: endpoint, to: directory.file("x")) }
        #expect(downloadError?.statusCode == 401)
        #expect(directory.contents.isEmpty)
    }
}

@Suite("Streaming responses from a local server", .fileserver)
struct StreamingFileServerTests {

    @Test("Server-Sent Events arrive parsed, one at a time as the server writes them", arguments: TransportKind.all)
    func serverSentEvents(transport: TransportKind) async throws {
        let client = transport.makeClient()
        var endpoint = try FileServer.endpoint("/events", query: ["interval": 0.05])
        endpoint.headers = ["Accept": "text/event-stream"]
        let stream = try await client.stream(for: endpoint)
        #expect(stream.response.headers["Content-Type"] == "text/event-stream")
        var events: [ServerSentEvent] = []
        for try await event in stream.events { events.append(event) }
        #expect(
            events == [
                ServerSentEvent(data: "first"),
                ServerSentEvent(event: "update", data: #"{"a":1}"#, id: "1"),
                ServerSentEvent(data: "line one\nline two", id: "1"),
                ServerSentEvent(data: "cr endings", id: "2", retry: 2500),
                ServerSentEvent(event: "done", data: "", id: "2", retry: 2500),
            ])
    }

    struct Line: Decodable, Equatable { let index: Int }

    @Test("Lines can be read as they come and the rest abandoned", arguments: TransportKind.all)
    func partialRead(transport: TransportKind) async throws {
        let client = transport.makeClient()
        var lines: [Line] = []
        let stream = try await client.stream(for: try FileServer.endpoint("/lines", query: ["count": 100, "interval": 0.02]))
        for try await line in stream.lines(as: Line.self) {
            lines.append(line)
            if lines.count == 3 { break }
        }
        #expect(lines == [Line(index: 0), Line(index: 1), Line(index: 2)])
    }
}
