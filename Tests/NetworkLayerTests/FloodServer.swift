import Foundation
import NetworkLayer
import TestSupport

/// A server that sends more than a client should hold: a body that never ends, one far longer than
/// the client's limit, or a gzip bomb. Each connection stops once the client hangs up, or after
/// `cap` bytes of body, so that a client that never stops reading still sees an end; it then waits
/// for the client to hang up.
final class FloodServer: Sendable {
    private let server: ScriptedServer
    private let ended = Locked(0)
    private let hungUp = Locked(0)

    /// Answers every request with `status` and `headers`, then `prefix` and `chunk` after `chunk`
    /// (as a chunked body unless `headers` give a `Content-Length`), until the client hangs up or
    /// `cap` bytes of body are written, then waits for the client to hang up. When `paced`, it waits a
    /// millisecond after each chunk: 64 KiB chunks then flow at 64 MB/s, which keeps a test that
    /// floods a client from starving the others of the process, and a client that stops reading
    /// within a second from ever reaching `cap`.
    init(
        status: Int = 200, headers: [String: String] = [:], prefix: Data = Data(), repeating chunk: Data, cap: Int,
        paced: Bool = false
    ) throws {
        let ended = ended
        let hungUp = hungUp
        let isChunked = !headers.keys.contains { $0.lowercased() == "content-length" }
        server = try ScriptedServer { connection in
            defer { ended.withLock { $0 += 1 } }
            var headers = headers
            if isChunked { headers["Transfer-Encoding"] = "chunked" }
            guard connection.writeHead(status: status, headers: headers) else { return }
            func send(_ data: Data) -> Bool { isChunked ? connection.writeChunk(data) : connection.write(data) }
            var written = 0
            if !prefix.isEmpty {
                guard send(prefix) else { return }
                written += prefix.count
            }
            while written < cap {
                guard send(chunk) else { return hungUp.withLock { $0 += 1 } }
                written += chunk.count
                if paced { Thread.sleep(forTimeInterval: 0.001) }
            }
            if isChunked { connection.endChunks() }
            connection.waitUntilClosed()
        }
    }

    /// The base URL, for example `http://127.0.0.1:40123`.
    var baseURL: String { server.baseURL }

    /// The response bytes the clients have accepted so far, heads included.
    var bytesWritten: Int { server.bytesWritten }

    /// The connections the client hung up on before the body's end.
    var cutShort: Int { hungUp.withLock { $0 } }

    /// Whether `connections` connections have ended (the client hung up, or the cap was reached)
    /// within 10 seconds.
    func connectionsEnded(_ connections: Int = 1) async -> Bool {
        let ended = ended
        return await eventually(timeout: 10) { ended.withLock { $0 } >= connections }
    }

    /// The first bytes of a gzip bomb, after which every zero byte inflates to 1,032 zero bytes: a
    /// gzip header, then a deflate block with Huffman codes of its own, in which a zero byte is the
    /// literal and a repeat of the previous 258 bytes costs two zero bits. 1 MiB of it inflates to
    /// 1 GiB; it never ends.
    static let gzipBombStart = Data([
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xed, 0xc0, 0x81, 0x00, 0x00, 0x00, 0x00, 0x80, 0xa0, 0xfd, 0xa9,
        0x17, 0xa9, 0x00,
    ])

    /// A server sending a gzip bomb: ``gzipBombStart``, then zeros, until the client hangs up or
    /// `cap` compressed bytes are written (1 MiB, which inflates to 1 GiB, by default).
    ///
    /// Over `URLSession` on Linux, libcurl inflates all it has read from the socket (up to 10 MiB at a
    /// time) before a cancellation can reach it, however soon the client stops: a bomb that never
    /// ends would keep a core busy for seconds after the client gave up on it.
    static func gzipBomb(cap: Int = 1024 * 1024) throws -> FloodServer {
        try FloodServer(
            headers: ["Content-Encoding": "gzip", "Content-Type": "application/json"], prefix: gzipBombStart,
            repeating: Data(count: 64 * 1024), cap: cap)
    }
}

/// Compresses as a server does before sending `Content-Encoding: gzip` or `deflate`, with python3's
/// zlib (python3 is what the tests need besides Swift).
enum Compression {
    struct Failure: Error {}

    /// `data` compressed at level 9, in gzip's format, or in zlib's (what HTTP calls deflate).
    static func compress(_ data: Data, gzip: Bool = true) throws -> Data {
        let directory = try TemporaryDirectory()
        let input = directory.file("body")
        try data.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zlib; c = zlib.compressobj(9, zlib.DEFLATED, int(sys.argv[2])); "
                + "sys.stdout.buffer.write(c.compress(open(sys.argv[1], 'rb').read()) + c.flush())",
            input.path, gzip ? "31" : "15",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !compressed.isEmpty else { throw Failure() }
        return compressed
    }
}
