import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bodies in gzip arrive decoded whichever way they are read, and are held to the response limits
/// by what they inflate to: over `URLSession` libcurl inflates them, over AsyncHTTPClient the
/// transport does, a slice at a time.
@Suite("Compressed bodies: decoded however read, limited by what they inflate to")
struct CompressedBodyTests {
    static let mebibyte: Int64 = 1024 * 1024

    /// A server answering every request with `json` in gzip, and the JSON.
    static func compressedJSON() async throws -> (FloodServer, Data) {
        let json = ResponseLimitTests.repetitiveJSON(records: 2_500)
        let compressed = try await onOwnThread { try Compression.compress(json) }
        let server = try FloodServer(
            headers: ["Content-Encoding": "gzip", "Content-Type": "application/json", "Content-Length": "\(compressed.count)"],
            repeating: compressed, cap: compressed.count)
        return (server, json)
    }

    @Test("Every request asks for gzip", arguments: TransportKind.all)
    func asksForGzip(transport: TransportKind) async throws {
        let accepted = Locked<String?>(nil)
        let server = try ScriptedServer { connection in
            accepted.withLock { $0 = connection.headers["accept-encoding"] }
            connection.writeHead(headers: ["Content-Length": "2"])
            connection.write(Data("{}".utf8))
        }
        _ = try await transport.makeClient().response(
            for: Request<Data>(base: server.baseURL, path: "/", options: CallOptions(timeout: 30)))
        #expect(accepted.withLock { $0 }?.contains("gzip") == true, "Accept-Encoding: \(accepted.withLock { $0 } ?? "none")")
    }

    @Test("A gzip body streamed, or downloaded, arrives decoded", arguments: TransportKind.all)
    func streamedAndDownloaded(transport: TransportKind) async throws {
        let (server, json) = try await Self.compressedJSON()
        let client = transport.makeClient()
        let endpoint = Request<Data>(base: server.baseURL, path: "/catalogue", options: CallOptions(timeout: 30))
        var streamed = Data()
        for try await chunk in try await client.stream(for: endpoint) { streamed.append(chunk) }
        #expect(streamed == json)
        let directory = try TemporaryDirectory()
        let file = try await client.download(for: endpoint, to: directory.file("catalogue.json"))
        #expect(try Data(contentsOf: file.fileURL) == json)
    }

    @Test("A deflate body (zlib's format) decodes too", arguments: TransportKind.all)
    func deflate(transport: TransportKind) async throws {
        let json = ResponseLimitTests.repetitiveJSON(records: 100)
        let compressed = try await onOwnThread { try Compression.compress(json, gzip: false) }
        let server = try FloodServer(
            headers: ["Content-Encoding": "deflate", "Content-Length": "\(compressed.count)"], repeating: compressed, cap: compressed.count)
        #expect(
            try await transport.makeClient().send(Request<Data>(base: server.baseURL, path: "/", options: CallOptions(timeout: 30))) == json
        )
    }

    @Test("A gzip bomb streamed, or downloaded, stops at the stream and download limits", arguments: TransportKind.all)
    func bombStreamedAndDownloaded(transport: TransportKind) async throws {
        let limit = 3 * Self.mebibyte
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte, download: limit, stream: limit))
        let streamServer = try FloodServer.gzipBomb(cap: 16 * 1024)
        let stream = try await client.stream(for: Request<Data>(base: streamServer.baseURL, path: "/", options: CallOptions(timeout: 30)))
        let streamed = await #expect(throws: APIError.self) {
            for try await _ in stream {}
        }
        #expect(ResponseLimitTests.isTooLarge(streamed, .stream, limit: limit), "\(String(describing: streamed))")
        #expect(await streamServer.connectionsEnded(), "the client hung up")

        let downloadServer = try FloodServer.gzipBomb(cap: 16 * 1024)
        let directory = try TemporaryDirectory()
        let downloaded = await #expect(throws: APIError.self) {
            try await client.download(
                for: Request<Data>(base: downloadServer.baseURL, path: "/", options: CallOptions(timeout: 30)), to: directory.file("x"))
        }
        #expect(ResponseLimitTests.isTooLarge(downloaded, .download, limit: limit), "\(String(describing: downloaded))")
        #expect(directory.contents.isEmpty)
        #expect(await downloadServer.connectionsEnded(), "the client hung up")
    }

    @Test(
        "Over AsyncHTTPClient, a body that does not inflate fails with cannotDecodeContentData",
        arguments: TransportKind.all.filter { !$0.isURLSession })
    func notGzip(transport: TransportKind) async throws {
        try await Self.expectCannotDecode(Data("this is not gzip at all".utf8), over: transport)
    }

    @Test(
        "Over AsyncHTTPClient, a gzip body cut short fails with cannotDecodeContentData",
        arguments: TransportKind.all.filter { !$0.isURLSession })
    func cutShort(transport: TransportKind) async throws {
        let compressed = try await onOwnThread { try Compression.compress(ResponseLimitTests.repetitiveJSON(records: 2_500)) }
        try await Self.expectCannotDecode(compressed.prefix(compressed.count / 2), over: transport)
    }

    /// Expects a gzip-labelled `body` sent over `transport` to fail with `cannotDecodeContentData`.
    private static func expectCannotDecode(_ body: Data, over transport: TransportKind) async throws {
        let server = try FloodServer(
            headers: ["Content-Encoding": "gzip", "Content-Length": "\(body.count)"], repeating: body, cap: body.count)
        let error = await #expect(throws: APIError.self) {
            try await transport.makeClient().send(Request<Data>(base: server.baseURL, path: "/", options: CallOptions(timeout: 30)))
        }
        guard case .requestFailed(let failure) = error else {
            Issue.record("expected requestFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.code == .cannotDecodeContentData)
    }
}
