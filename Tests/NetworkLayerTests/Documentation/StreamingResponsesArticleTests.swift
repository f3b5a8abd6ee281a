import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ArticleTests {
    /// The snippets of the article StreamingResponses.md, compiled and run against stubs.
    @Suite("Article: Streaming responses")
    struct StreamingResponsesArticleTests {
        enum LogAPI: Endpoint {
            case tail, export
            var base: String { "https://logs.example.com" }
            var path: String { self == .tail ? "/tail" : "/export" }
        }

        enum FeedAPI: Endpoint {
            case updates
            var base: String { "https://api.example.com" }
            var path: String { "/feed" }
            var headers: HTTPHeaders { ["Accept": "text/event-stream"] }
        }

        struct LogEvent: Decodable { let level: String }

        @Test("Lines, NDJSON and Server-Sent Events, across chunk boundaries")
        func views() async throws {
            let stubs = StubSession()
            stubs.register(.get, "/tail", .chunked([Data("started\r\nrun".utf8), Data("ning\rdone\n".utf8)]))
            stubs.register(.get, "/export", .chunked([Data(#"{"level":"info"}"#.utf8), Data("\n\n{\"level\":\"warn\"}\n".utf8)]))
            stubs.register(.get, "/feed", .chunked([Data("event: update\nid: 7\ndata: he".utf8), Data("llo\n\n".utf8)]))
            let client = Article.client(stubs)
            var lines: [String] = []
            var levels: [String] = []
            var events: [ServerSentEvent] = []

            let stream = try await client.stream(for: LogAPI.tail)
            for try await line in stream.lines { lines.append(line) }

            for try await event in try await client.stream(for: LogAPI.export).lines(as: LogEvent.self) {
                levels.append(event.level)
            }

            for try await event in try await client.stream(for: FeedAPI.updates).events {
                events.append(event)
            }

            #expect(lines == ["started", "running", "done"])
            #expect(levels == ["info", "warn"])
            #expect(events == [ServerSentEvent(event: "update", data: "hello", id: "7")])
        }

        @Test("Test code that streams: a chunked stub")
        func chunkedStub() async throws {
            let stubs = StubSession()
            let client = Article.client(stubs)

            stubs.register(.get, "/feed", .chunked([Data("data: he".utf8), Data("llo\n\n".utf8)]))
            let events = try await client.stream(for: FeedAPI.updates).events

            var received: [String] = []
            for try await event in events { received.append(event.data) }
            #expect(received == ["hello"])
        }

        @Test("A status outside the acceptable ones fails before the first element")
        func statusFailsFirst() async {
            let stubs = StubSession()
            stubs.register(.get, "/tail", .status(503))
            await #expect(throws: APIError.self) { try await Article.client(stubs).stream(for: LogAPI.tail) }
        }
    }
}
