import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Interim `1xx` responses (RFC 9110 §15.2) come before the final one: every call skips them, on
/// every transport, and none of them counts as activity for the idle timeout.
@Suite("Interim 1xx responses", .timeSensitive)
struct InterimResponseTests {
    /// The ways of sending that read a response: collected, written to a file, streamed, or an upload's.
    enum Verb: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case send, upload, download, stream

        var testDescription: String { rawValue }

        /// Sends `endpoint` this way, reading the whole body, and returns it.
        func run(_ client: NetworkClient, _ endpoint: TestEndpoint) async throws(APIError) -> Data {
            switch self {
            case .send:
                return try await client.send(endpoint, as: Data.self)
            case .upload:
                var upload = endpoint
                upload.method = .post
                upload.task = .requestData(Data("payload".utf8), contentType: "text/plain")
                return try await client.upload(for: upload, as: Data.self)
            case .download:
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("NetworkLayerTests-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let file = try await client.download(for: endpoint, to: directory.appendingPathComponent("body"))
                return (try? Data(contentsOf: file.fileURL)) ?? Data()
            case .stream:
                var body = Data()
                for try await chunk in try await client.stream(for: endpoint) { body.append(chunk) }
                return body
            }
        }
    }

    /// Answers `103 Early Hints`, then, a moment later, `200` with `hello`.
    static func earlyHintsServer() throws -> ScriptedServer {
        try ScriptedServer { connection in
            connection.write(Data("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n".utf8))
            Thread.sleep(forTimeInterval: 0.05)
            connection.writeHead(headers: ["Content-Type": "text/plain", "Content-Length": "5"])
            connection.write(Data("hello".utf8))
        }
    }

    /// Answers `102 Processing` every half second and never anything else, until the client hangs up.
    static func processingServer() throws -> ScriptedServer {
        try ScriptedServer { connection in
            for _ in 0..<60 {
                guard connection.write(Data("HTTP/1.1 102 Processing\r\n\r\n".utf8)) else { return }
                if connection.waitUntilClosed(timeout: 0.5) { return }
            }
        }
    }

    @Test("A 103 Early Hints before the 200 is skipped by send, upload, download and stream", arguments: TransportKind.all, Verb.allCases)
    func earlyHints(transport: TransportKind, verb: Verb) async throws {
        let server = try Self.earlyHintsServer()
        defer { server.stop() }
        let body = try await verb.run(transport.makeClient(timeout: 10), TestEndpoint(base: server.baseURL))
        #expect(body == Data("hello".utf8))
    }

    @Test(
        "A 102 Processing every 0.5 s is no activity: every call still fails at its idle timeout of 1 s",
        arguments: TransportKind.all, Verb.allCases)
    func processingIsNotActivity(transport: TransportKind, verb: Verb) async throws {
        let server = try Self.processingServer()
        defer { server.stop() }
        let client = transport.makeClient(timeout: 1)
        let stopwatch = Stopwatch()
        await #expect(throws: APIError.timedOut) { try await verb.run(client, TestEndpoint(base: server.baseURL)) }
        // The server sends 102s for 30 s: a call they kept alive would end only then.
        #expect(stopwatch.seconds < 5, "timed out after \(stopwatch.seconds) s")
    }
}
