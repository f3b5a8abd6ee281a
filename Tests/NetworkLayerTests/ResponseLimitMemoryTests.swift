import Foundation
import NetworkLayer
import TestSupport
import Testing

/// A body past the in-memory limit costs the limit and no more: each test resets the process's peak
/// resident memory, has a server send an endless body, a 1 GiB one or a gzip bomb to a client whose
/// limit is 8 MiB, and checks how far the peak rose. Without the limit it would rise by a gigabyte.
///
/// The figures are the whole process's, so the suite runs alone: `scripts/test` runs it in the pass
/// it gives to large transfers (`NETWORKLAYER_LARGE_TRANSFERS=1`). Set `NETWORKLAYER_PRINT_MEMORY=1`
/// to print them.
@Suite(
    "Memory stays bounded at the response limit",
    .enabled(
        if: ProcessInfo.processInfo.environment["NETWORKLAYER_LARGE_TRANSFERS"] == "1",
        "runs alone: scripts/test runs it in the pass of large transfers, with NETWORKLAYER_LARGE_TRANSFERS=1"),
    .enabled(if: PeakMemory.isAvailable, "needs Linux's /proc/self/clear_refs"), .serialized)
struct ResponseLimitMemoryTests {
    static let limit: Int64 = 8 * 1024 * 1024
    /// How far above the limit the peak may rise: the collected body's last chunk, the transports'
    /// own buffers and the sockets' (a few MiB).
    static let margin: Int64 = 8 * 1024 * 1024
    static let gibibyte = 1 << 30

    /// Sends `endpoint` through `read` on a client over `transport` with an in-memory limit of
    /// ``limit``, after a first small request; returns the error and how far the peak rose.
    static func measure(
        _ what: String, over transport: TransportKind, server: FloodServer,
        _ read: @escaping @Sendable (NetworkClient, Request<Data>) async throws(APIError) -> Void
    ) async throws -> (APIError?, Int64) {
        let client = transport.makeClient(responseLimits: ResponseLimits(inMemory: limit))
        // The client's first request costs what any first request does; the rise is the body's.
        let warmUp = try FloodServer(headers: ["Content-Length": "1000"], repeating: Pattern.data(count: 1000), cap: 1000)
        _ = try await client.send(Request<Data>(base: warmUp.baseURL, path: "/"))
        let endpoint = Request<Data>(base: server.baseURL, path: "/body", options: CallOptions(timeout: 30))
        let (error, rise) = try await PeakMemory.rise {
            await #expect(throws: APIError.self) { try await read(client, endpoint) }
        }
        if ProcessInfo.processInfo.environment["NETWORKLAYER_PRINT_MEMORY"] == "1" {
            print(
                "[memory] \(what) over \(transport.rawValue), limit 8 MiB: peak RSS +\(String(format: "%.1f", Double(rise) / 1_048_576)) MiB"
            )
        }
        #expect(await server.connectionsEnded(), "the client hung up")
        return (error, rise)
    }

    /// Whether `error` is the in-memory limit's, stopped within a chunk of it.
    static func isTooLarge(_ error: APIError?) -> Bool {
        guard case .responseTooLarge(.inMemory, limit, let received, false) = error else { return false }
        return received > limit && received <= limit + 1024 * 1024
    }

    @Test("An endless body read with send stops at the limit, the peak a few MiB above it", arguments: TransportKind.all)
    func endlessBody(transport: TransportKind) async throws {
        let server = try FloodServer(repeating: Pattern.data(count: 64 * 1024), cap: 4 * Self.gibibyte)
        let (error, rise) = try await Self.measure("endless body, send", over: transport, server: server) {
            client, endpoint async throws(APIError) in
            _ = try await client.send(endpoint)
        }
        #expect(Self.isTooLarge(error), "\(String(describing: error))")
        #expect(rise < Self.limit + Self.margin, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test(
        "A chunked 1 GiB body read with response(for:progress:) stops at the limit, the peak a few MiB above it",
        arguments: TransportKind.all)
    func gibibyteChunked(transport: TransportKind) async throws {
        let server = try FloodServer(repeating: Pattern.data(count: 64 * 1024), cap: Self.gibibyte)
        let (error, rise) = try await Self.measure("1 GiB chunked, response(for:progress:)", over: transport, server: server) {
            client, endpoint async throws(APIError) in
            _ = try await client.response(for: endpoint, progress: { _ in })
        }
        #expect(Self.isTooLarge(error), "\(String(describing: error))")
        #expect(rise < Self.limit + Self.margin, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test("A 1 GiB body with its Content-Length fails at the head, the peak barely moving", arguments: TransportKind.all)
    func gibibyteAnnounced(transport: TransportKind) async throws {
        let server = try FloodServer(
            headers: ["Content-Length": "\(Self.gibibyte)"], repeating: Pattern.data(count: 64 * 1024), cap: Self.gibibyte)
        let (error, rise) = try await Self.measure("1 GiB with Content-Length, send", over: transport, server: server) {
            client, endpoint async throws(APIError) in
            _ = try await client.send(endpoint)
        }
        #expect(error == .responseTooLarge(.inMemory, limit: Self.limit, received: Int64(Self.gibibyte), announced: true))
        #expect(rise < Self.margin, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test("A gzip bomb stops at the limit of what it inflates to, the peak a few MiB above it", arguments: TransportKind.all)
    func gzipBomb(transport: TransportKind) async throws {
        let server = try FloodServer.gzipBomb()
        let (error, rise) = try await Self.measure("gzip bomb, send", over: transport, server: server) {
            client, endpoint async throws(APIError) in
            _ = try await client.send(endpoint)
        }
        #expect(Self.isTooLarge(error), "\(String(describing: error))")
        #expect(rise < Self.limit + Self.margin, "peak rose by \(rise / 1_048_576) MiB")
    }

    @Test("A gzip bomb read slowly as a stream holds the transfer back, the peak barely moving", arguments: TransportKind.all)
    func slowBombStream(transport: TransportKind) async throws {
        // 64 MiB once inflated: over URLSession on Linux, what the reader has not read waits on disk.
        let server = try FloodServer.gzipBomb(cap: 64 * 1024)
        let client = transport.makeClient()
        let warmUp = try FloodServer(headers: ["Content-Length": "1000"], repeating: Pattern.data(count: 1000), cap: 1000)
        _ = try await client.send(Request<Data>(base: warmUp.baseURL, path: "/"))
        let endpoint = Request<Data>(base: server.baseURL, path: "/body", options: CallOptions(timeout: 30))
        let (read, rise): (Int, Int64) = try await PeakMemory.rise {
            var iterator = try await client.stream(for: endpoint).makeAsyncIterator()
            var read = 0
            for _ in 0..<40 {
                guard let chunk = try await iterator.next() else { break }
                read += chunk.count
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            return read
        }
        if ProcessInfo.processInfo.environment["NETWORKLAYER_PRINT_MEMORY"] == "1" {
            print(
                "[memory] gzip bomb read slowly as a stream over \(transport.rawValue): peak RSS +\(String(format: "%.1f", Double(rise) / 1_048_576)) MiB"
            )
        }
        #expect(read > 0 && read < 64 * 1024 * 1024, "the reader was still behind when it stopped: \(read) bytes read")
        #expect(rise < Self.margin, "peak rose by \(rise / 1_048_576) MiB")
        #expect(await server.connectionsEnded(), "the client hung up")
    }
}
