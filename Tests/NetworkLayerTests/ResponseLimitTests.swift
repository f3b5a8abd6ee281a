import Foundation
import NetworkLayer
import TestSupport
import Testing

#if AsyncHTTPClient
    import AsyncHTTPClient
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a server may make a client hold: bodies past the client's ``ResponseLimits`` stop at the
/// limit, at once, with an error that names it.
///
/// Each server here would send far more than the limit (an endless body stops at 256 MiB so that a
/// client without a limit still sees an end), at 64 MB/s so as not to starve the other tests of the
/// process; that the transfer stopped shows in the client hanging up before the body's end. A gzip
/// bomb is kept to 16 KiB (16 MiB once inflated) here: over `URLSession` libcurl inflates all it has
/// read before a cancellation reaches it. The peak memory of the same transfers, with bodies of
/// gigabytes sent at full speed, is measured in ``ResponseLimitMemoryTests``, which runs alone.
@Suite("Response limits: bodies past the limit stop there, with an error that names it")
struct ResponseLimitTests {
    static let mebibyte: Int64 = 1024 * 1024
    /// An endless body's end, for a client that never stops reading: 4 seconds away at 64 MB/s.
    static let cap = 256 * 1024 * 1024

    static func endless(headers: [String: String] = [:]) throws -> FloodServer {
        try FloodServer(headers: headers, repeating: Pattern.data(count: 64 * 1024), cap: cap, paced: true)
    }

    static func endpoint(_ server: FloodServer, limits: ResponseLimits? = nil) -> Request<Data> {
        var request = Request<Data>(base: server.baseURL, path: "/body", options: CallOptions(timeout: 30))
        request.options.responseLimits = limits
        return request
    }

    /// Whether `error` is `responseTooLarge` of `kind` at `limit`, stopped within one chunk past it.
    static func isTooLarge(_ error: APIError?, _ kind: ResponseLimits.Kind, limit: Int64) -> Bool {
        guard case .responseTooLarge(kind, limit, let received, false) = error else { return false }
        return received > limit && received <= limit + mebibyte
    }

    @Test("An endless body read into memory fails at the client's limit, and the transfer stops there", arguments: TransportKind.all)
    func endlessBody(transport: TransportKind) async throws {
        let server = try Self.endless()
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte))
        let error = await #expect(throws: APIError.self) { try await client.send(Self.endpoint(server)) }
        #expect(Self.isTooLarge(error, .inMemory, limit: Self.mebibyte), "\(String(describing: error))")
        #expect(await server.connectionsEnded(), "the client hung up")
        #expect(server.cutShort == 1, "the client hung up before the end")
    }

    @Test("Every way of reading a body into memory is held to the limit", arguments: TransportKind.all)
    func everyInMemoryForm(transport: TransportKind) async throws {
        let server = try Self.endless()
        let limit = Self.mebibyte
        let client = NetworkClient(
            transport: transport.makeTransport(),
            configuration: ClientConfiguration(
                responseLimits: ResponseLimits(inMemory: limit), callbackQueue: DispatchQueue(label: "limits")))
        let endpoint = Self.endpoint(server)
        var request = URLRequest(url: try #require(URL(string: server.baseURL + "/body")))
        request.timeoutInterval = 30
        let response = await #expect(throws: APIError.self) { try await client.response(for: endpoint) }
        let typed = await #expect(throws: APIError.self) { try await client.response(for: endpoint, as: Data.self) }
        let progress = await #expect(throws: APIError.self) { try await client.response(for: endpoint, progress: { _ in }) }
        let handBuilt = await #expect(throws: APIError.self) { try await client.send(with: request, as: Data.self) }
        let completion = await withCheckedContinuation { continuation in
            client.fetch(endpoint, as: Data.self) { continuation.resume(returning: $0) }
        }
        for (form, error) in [
            ("response(for:)", response), ("response(for:as:)", typed), ("response(for:progress:)", progress),
            ("send(with:as:)", handBuilt), ("fetch(_:as:completion:)", completion.failure),
        ] {
            #expect(Self.isTooLarge(error, .inMemory, limit: limit), "\(form): \(String(describing: error))")
        }
        #expect(await server.connectionsEnded(5), "the client hung up every time")
        #expect(server.cutShort == 5, "the client hung up before the end")
    }

    @Test("A Content-Length over the limit fails at the head, naming the length announced", arguments: TransportKind.all)
    func announcedLength(transport: TransportKind) async throws {
        let gibibyte = 1 << 30
        let server = try FloodServer(
            headers: ["Content-Length": "\(gibibyte)"], repeating: Pattern.data(count: 64 * 1024), cap: gibibyte, paced: true)
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte))
        let error = await #expect(throws: APIError.self) { try await client.send(Self.endpoint(server)) }
        #expect(error == .responseTooLarge(.inMemory, limit: Self.mebibyte, received: Int64(gibibyte), announced: true))
        #expect(await server.connectionsEnded(), "the client hung up")
        #expect(server.cutShort == 1, "the client hung up before the end")
    }

    @Test("A gzip bomb stops at the limit of what it inflates to, not at what arrived compressed", arguments: TransportKind.all)
    func gzipBomb(transport: TransportKind) async throws {
        // 16 MiB once inflated: past the limit, and little for libcurl to inflate after it.
        let server = try FloodServer.gzipBomb(cap: 16 * 1024)
        let limit = 4 * Self.mebibyte
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: limit))
        let error = await #expect(throws: APIError.self) { try await client.send(Self.endpoint(server)) }
        #expect(Self.isTooLarge(error, .inMemory, limit: limit), "\(String(describing: error))")
        #expect(await server.connectionsEnded(), "the client hung up")
    }

    @Test("A legitimate JSON compressed about 160 to 1 decodes whole", arguments: TransportKind.all)
    func compressibleJSON(transport: TransportKind) async throws {
        let json = Self.repetitiveJSON(records: 2_500)
        let compressed = try await onOwnThread { try Compression.compress(json) }
        #expect(json.count / compressed.count > 100, "compressed \(json.count) to \(compressed.count) bytes")
        let server = try FloodServer(
            headers: ["Content-Encoding": "gzip", "Content-Type": "application/json", "Content-Length": "\(compressed.count)"],
            repeating: compressed, cap: compressed.count)
        let records = try await transport.makeClient().send(
            Request<[Record]>(base: server.baseURL, path: "/catalogue", options: CallOptions(timeout: 30)))
        #expect(records.count == 2_500)
        #expect(records.last == Record(id: 2_499 % 16, title: "The Shawshank Redemption", tags: ["prison", "friendship", "hope"]))
    }

    @Test("An endpoint's limits replace the client's, larger or smaller", arguments: TransportKind.all)
    func endpointOverride(transport: TransportKind) async throws {
        let body = Pattern.data(count: 2 * 1024 * 1024)
        let server = try FloodServer(headers: ["Content-Length": "\(body.count)"], repeating: body, cap: body.count)
        let small = transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte))
        let large = transport.makeClient(responseLimits: ResponseLimits(inMemory: 8 * Self.mebibyte))
        #expect(try await small.send(Self.endpoint(server, limits: ResponseLimits(inMemory: 8 * Self.mebibyte))) == body)
        await #expect(throws: APIError.responseTooLarge(.inMemory, limit: Self.mebibyte, received: Int64(body.count), announced: true)) {
            try await large.send(Self.endpoint(server, limits: ResponseLimits(inMemory: Self.mebibyte)))
        }
    }

    @Test("A download is held to its own limit, not the in-memory one, and leaves no file", arguments: TransportKind.all)
    func downloadLimit(transport: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        let body = Pattern.data(count: 2 * 1024 * 1024)
        let whole = try FloodServer(headers: ["Content-Length": "\(body.count)"], repeating: body, cap: body.count)
        let file = try await transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte))
            .download(for: Self.endpoint(whole), to: directory.file("whole"))
        #expect(file.byteCount == Int64(body.count), "the in-memory limit does not apply to a download")

        let server = try Self.endless()
        let limit = 3 * Self.mebibyte
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte, download: limit))
        let error = await #expect(throws: APIError.self) { try await client.download(for: Self.endpoint(server), to: directory.file("x")) }
        #expect(Self.isTooLarge(error, .download, limit: limit), "\(String(describing: error))")
        #expect(directory.contents == ["whole"], "no partial file is left")
        #expect(await server.connectionsEnded(), "the client hung up")
        #expect(server.cutShort == 1, "the client hung up before the end")
    }

    @Test("A stream is held to its own limit, counted as it is read", arguments: TransportKind.all)
    func streamLimit(transport: TransportKind) async throws {
        let server = try Self.endless()
        let limit = 3 * Self.mebibyte
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: Self.mebibyte, stream: limit))
        let stream = try await client.stream(for: Self.endpoint(server))
        var read: Int64 = 0
        let error = await #expect(throws: APIError.self) {
            for try await chunk in stream { read += Int64(chunk.count) }
        }
        #expect(Self.isTooLarge(error, .stream, limit: limit), "\(String(describing: error))")
        #expect(read > Self.mebibyte && read <= limit, "the chunks up to the limit were read: \(read) bytes")
        #expect(await server.connectionsEnded(), "the client hung up")
        #expect(server.cutShort == 1, "the client hung up before the end")
    }

    @Test("A rejected response keeps at most 64 KiB of its body, collected or streamed", arguments: TransportKind.all)
    func rejectedBodyCapped(transport: TransportKind) async throws {
        let body = Pattern.data(count: 1024 * 1024)
        let server = try FloodServer(status: 500, headers: ["Content-Length": "\(body.count)"], repeating: body, cap: body.count)
        let client = transport.makeClient()
        let collected = await #expect(throws: APIError.self) { try await client.send(Self.endpoint(server)) }
        let streamed = await #expect(throws: APIError.self) { try await client.response(for: Self.endpoint(server), progress: { _ in }) }
        for error in [collected, streamed] {
            #expect(error?.statusCode == 500)
            #expect(error?.response?.body == body.prefix(64 * 1024))
        }
    }

    @Test("A transport of your own is held to the limit too: a streamed body stops being read, a collected one is refused")
    func customTransports() async throws {
        let endless = EndlessTransport()
        let limits = ResponseLimits(inMemory: Self.mebibyte)
        let endpoint = Request<Data>(base: "https://api.example.com", path: "/body")
        let error = await #expect(throws: APIError.self) {
            try await NetworkClient(transport: endless, configuration: ClientConfiguration(responseLimits: limits)).send(endpoint)
        }
        #expect(Self.isTooLarge(error, .inMemory, limit: Self.mebibyte), "\(String(describing: error))")
        #expect(await eventually { endless.stopped }, "the transport was told to stop")
        #expect(endless.written < 8 * Self.mebibyte)

        let whole = Collecting(body: Pattern.data(count: 2 * 1024 * 1024))
        await #expect(throws: APIError.responseTooLarge(.inMemory, limit: Self.mebibyte, received: 2 * Self.mebibyte)) {
            try await NetworkClient(transport: whole, configuration: ClientConfiguration(responseLimits: limits)).send(endpoint)
        }
        #expect(whole.maximumBodySize == Self.mebibyte, "the transport was told the limit")
    }

    #if AsyncHTTPClient
        @Test(
            "Over an HTTPClient of your own with a decompression ratio limit, a body past it fails saying so",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func ownDecompressionLimit(transport: TransportKind) async throws {
            let compressed = try await onOwnThread { try Compression.compress(Self.repetitiveJSON(records: 2_500)) }
            let server = try FloodServer(
                headers: ["Content-Encoding": "gzip", "Content-Length": "\(compressed.count)"], repeating: compressed,
                cap: compressed.count)
            var configuration = AsyncHTTPClientTransport.defaultConfiguration()
            configuration.decompression = .enabled(limit: .ratio(25))
            let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            let error = await #expect(throws: APIError.self) {
                try await NetworkClient(transport: .asyncHTTPClient(httpClient)).send(Self.endpoint(server))
            }
            try await httpClient.shutdown()
            guard case .requestFailed(let failure) = error else {
                Issue.record("expected requestFailed, got \(String(describing: error))")
                return
            }
            #expect(failure.code == .dataLengthExceedsMaximum)
            #expect(error?.description.contains("inflated past the decompression limit of the HTTPClient's configuration") == true)
        }
    #endif

    @Test("The error says which limit, how large it is, what arrived, and how to raise it")
    func description() {
        let error = APIError.responseTooLarge(.inMemory, limit: 8 * Self.mebibyte, received: 8_404_992)
        #expect(
            error.description
                == "The response body is larger than the in-memory limit of 8388608 bytes (8.0 MiB): the transfer was stopped at "
                + "8404992 bytes (8.0 MiB). Raise ResponseLimits.inMemory (the client's responseLimits, or the endpoint's), "
                + "or download the body to a file")
        #expect(
            APIError.responseTooLarge(.stream, limit: 1000, received: 1200).description
                == "The response body is larger than the stream limit of 1000 bytes: the transfer was stopped at 1200 bytes. "
                + "Raise ResponseLimits.stream (the client's responseLimits, or the endpoint's)")
    }

    @Test("A Content-Length over the limit is said to be declared, with none of the body read")
    func announcedDescription() {
        let error = APIError.responseTooLarge(.inMemory, limit: 50_000_000, received: 60_000_000, announced: true)
        #expect(
            error.description
                == "The response body is larger than the in-memory limit of 50000000 bytes (47.7 MiB): its Content-Length "
                + "declared 60000000 bytes (57.2 MiB), so none of it was read. Raise ResponseLimits.inMemory (the client's "
                + "responseLimits, or the endpoint's), or download the body to a file")
    }

    @Test("The default is 64 MiB in memory, with downloads and streams unbounded, on every client")
    func defaults() {
        #expect(ResponseLimits.default == ResponseLimits(inMemory: 64 * 1024 * 1024, download: nil, stream: nil))
        #expect(NetworkClient().configuration.responseLimits == .default)
        #expect(ClientConfiguration().responseLimits == .default)
    }

    struct Record: Codable, Equatable {
        let id: Int
        let title: String
        let tags: [String]
    }

    /// A JSON array of `records` records that differ only in an id cycling through 16 values: about
    /// 130 bytes a record, and about 160 to 1 under gzip.
    static func repetitiveJSON(records: Int) -> Data {
        let items = (0..<records).map { index in
            #"{"id":\#(index % 16),"title":"The Shawshank Redemption","genre":"Drama","rating":8.7,"#
                + #""tags":["prison","friendship","hope"],"available":true}"#
        }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }
}

/// A transport whose every body is endless: 64 KiB chunks written until the reader stops it, or 256 MiB.
private final class EndlessTransport: HTTPTransport {
    private let state = Locked((written: 0, stopped: false))
    var written: Int { state.withLock { $0.written } }
    var stopped: Bool { state.withLock { $0.stopped } }

    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        let (body, writer) = ResponseBody.makeStream()
        let state = state
        Task {
            let chunk = Pattern.data(count: 64 * 1024)
            do throws(APIError) {
                while state.withLock({ $0.written }) < ResponseLimitTests.cap {
                    try await writer.write(chunk)
                    state.withLock { $0.written += chunk.count }
                }
                writer.finish()
            } catch {
                state.withLock { $0.stopped = true }
            }
        }
        return TransportResponse(head: HTTPResponse(statusCode: 200, url: request.urlRequest.url), body: body)
    }
}

/// A transport that answers `body` whole from ``data(for:)``, whatever the request's limit, and
/// keeps the limit it was given.
private final class Collecting: HTTPTransport {
    let body: Data
    private let limit = Locked<Int64?>(nil)
    var maximumBodySize: Int64? { limit.withLock { $0 } }

    init(body: Data) {
        self.body = body
    }

    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        TransportResponse(try await data(for: request))
    }

    func data(for request: TransportRequest) async throws(APIError) -> HTTPResponse {
        limit.withLock { $0 = request.maximumBodySize }
        return HTTPResponse(statusCode: 200, body: body, url: request.urlRequest.url)
    }
}
