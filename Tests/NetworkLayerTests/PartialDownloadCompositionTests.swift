import Foundation
import NetworkLayer
import TestSupport
import Testing

/// A partial download kept after a failure, gone on with by a client with everything an app turns
/// on beside downloads: a refreshing token, a cookie jar, the cache, the de-duplicator, a logger.
@Suite("Partial downloads with the interceptors an app turns on")
struct PartialDownloadCompositionTests {
    static let size = 1_000_000

    /// A client with the whole stack, its log lines collected in `lines`, its refreshes counted in `refreshes`.
    static func client(over transport: TransportKind, lines: Locked<[String]>, refreshes: Locked<Int>) -> NetworkClient {
        let auth = RefreshingAuthenticator(token: "secret-1") { _ in
            "secret-\(refreshes.withLock { count in count += 1; return count + 1 })"
        }
        let logger = NetworkLogger(level: .debug) { line in lines.withLock { $0.append(line) } }
        return transport.makeClient(interceptors: [auth, CookieJar(), HTTPCache(), Deduplicator(), logger])
    }

    @Test(
        "A download left part way goes on after its token expired: the 401 refreshes it, and the retry asks for the rest, with the session's cookie",
        arguments: TransportKind.all)
    func goesOnAfterARefresh(transport: TransportKind) async throws {
        let body = RangeServer.content(count: Self.size)
        let resource = RangeServer.Resource(
            body: body, headers: ["ETag": #""v1""#, "Set-Cookie": "session=secret-s; Path=/"], authorization: "Bearer secret-1")
        let server = try RangeServer(resource, dropsAt: [400_000])
        let directory = try TemporaryDirectory()
        let lines = Locked<[String]>([])
        let refreshes = Locked(0)
        let client = Self.client(over: transport, lines: lines, refreshes: refreshes)
        let endpoint = TestEndpoint(base: server.baseURL, path: "/file")
        await #expect(throws: APIError.self) { try await client.download(for: endpoint, to: directory.file("a.bin")) }

        // The token expires on the server: the next download's first try is refused.
        var renewed = resource
        renewed.authorization = "Bearer secret-2"
        server.replace(with: renewed)
        let file = try await client.download(for: endpoint, to: directory.file("a.bin"))

        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(file.response.statusCode == 206)
        #expect(refreshes.withLock { $0 } == 1)
        let requests = server.requests
        #expect(requests.map(\.authorization) == ["Bearer secret-1", "Bearer secret-1", "Bearer secret-2"])
        #expect(requests.map(\.range) == [nil, "bytes=400000-", "bytes=400000-"], "the retry after the refresh asks for the rest too")
        #expect(requests.dropFirst().allSatisfy { $0.ifRange == #""v1""# && $0.cookie == "session=secret-s" })
        #expect(directory.contents == ["a.bin"])
        let log = lines.withLock { $0.joined(separator: "\n") }
        #expect(!log.isEmpty)
        #expect(!log.contains("secret"), "no token or cookie in the log")
    }

    @Test(
        "The cache neither answers nor stores a download: a body fetched and cached before is downloaded anew, and a kept partial goes on",
        arguments: TransportKind.all)
    func cacheStaysOutOfTheWay(transport: TransportKind) async throws {
        let body = RangeServer.content(count: Self.size)
        let resource = RangeServer.Resource(body: body, headers: ["ETag": #""v1""#, "Cache-Control": "max-age=3600"])
        let server = try RangeServer(resource, dropsAt: [600_000])
        let directory = try TemporaryDirectory()
        let client = Self.client(over: transport, lines: Locked([]), refreshes: Locked(0))
        let endpoint = TestEndpoint(base: server.baseURL, path: "/file")
        await #expect(throws: APIError.self) { try await client.download(for: endpoint, to: directory.file("a.bin")) }
        // Now fresh in the cache, whole: the second call is a hit.
        #expect(try await client.response(for: endpoint).body == body)
        #expect(try await client.response(for: endpoint).body == body)
        #expect(server.requests.count == 2)

        let file = try await client.download(for: endpoint, to: directory.file("a.bin"))
        #expect(try Data(contentsOf: file.fileURL) == body)
        #expect(server.requests.map(\.range) == [nil, nil, "bytes=600000-"], "the download went to the server, for the rest")
        // A second download of the whole body goes to the server too: a download is never a cache hit.
        let again = try await client.download(for: endpoint, to: directory.file("b.bin"))
        #expect(try Data(contentsOf: again.fileURL) == body)
        #expect(server.requests.count == 4)
    }

    @Test(
        "Concurrent downloads of one URL to one destination through the de-duplicator each get the whole file, none spliced",
        arguments: TransportKind.all)
    func deduplicatorAndConcurrentDownloads(transport: TransportKind) async throws {
        let body = RangeServer.content(count: 2 * Self.size)
        let server = try RangeServer(.init(body: body, headers: ["ETag": #""v1""#]), dropsAt: [500_000])
        let directory = try TemporaryDirectory()
        let client = Self.client(over: transport, lines: Locked([]), refreshes: Locked(0))
        let endpoint = TestEndpoint(base: server.baseURL, path: "/file")
        await #expect(throws: APIError.self) { try await client.download(for: endpoint, to: directory.file("a.bin")) }

        let files = try await withThrowingTaskGroup(of: DownloadedFile.self) { group in
            for _ in 0..<8 {
                group.addTask { try await client.download(for: endpoint, to: directory.file("a.bin")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(files.map(\.byteCount) == Array(repeating: Int64(body.count), count: 8))
        #expect(try Data(contentsOf: directory.file("a.bin")) == body)
        let resumed = server.requests.dropFirst().filter { $0.range != nil }
        #expect(
            resumed.map(\.range) == ["bytes=500000-"], "one download went on with the kept bytes; the others started files of their own")
        #expect(directory.contents == ["a.bin"])
    }
}
