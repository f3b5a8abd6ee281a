import Foundation
import NetworkLayer

/// A server of one resource over ``ScriptedServer`` that answers byte ranges the way RFC 9110 §14
/// says (or not at all), drops connections part way at the offsets a test sets, and records what
/// every request asked for: to show how a download resumes.
final class RangeServer: Sendable {
    /// The resource served, and how its ranges are served.
    struct Resource: Sendable {
        /// The body.
        var body: Data
        /// The validators and any other headers of every answer, as sent (names as written).
        var headers: [String: String]
        /// Whether `Range` is honoured; `false` answers every request with a `200` and the whole body.
        var supportsRanges = true
        /// A `Content-Range` sent instead of the true one on every `206`: a hostile server's.
        var contentRange: String?
        /// The `Authorization` a request needs; others are answered `401`. `nil` asks for none.
        var authorization: String?
    }

    /// What a request asked for.
    struct Request: Sendable, Equatable {
        /// The request's path.
        var path: String
        /// Its `Range`, or `nil`.
        var range: String?
        /// Its `If-Range`, or `nil`.
        var ifRange: String?
        /// Its `Authorization`, or `nil`.
        var authorization: String? = nil
        /// Its `Cookie`, or `nil`.
        var cookie: String? = nil
    }

    private struct State {
        var resource: Resource
        /// The offsets of the body at which the next answers that reach them drop their connection, each once.
        var drops: [Int]
        /// The resource served once a connection has been dropped, when it changes.
        var afterDrop: Resource?
        /// The offset after which the next answer that passes it stops sending and waits for the client to close.
        var holdAt: Int?
        /// The requests every answer waits for, after its head, before it sends its body.
        var rendezvous: Int
        var requests: [Request] = []
    }

    /// How fast a body is written: `chunk` bytes, then a pause of `pause` seconds, so that a client
    /// that stops reading (or dies) leaves about one chunk unread on the way.
    struct Pacing: Sendable {
        var chunk: Int
        var pause: TimeInterval
    }

    private let state: Locked<State>
    private let server: ScriptedServer

    /// Starts serving `resource`.
    /// - Parameters:
    ///   - resource: What is served.
    ///   - drops: The body offsets at which an answer that reaches them drops its connection, each once.
    ///   - afterDrop: What is served once a connection has been dropped; `resource` still by default.
    ///   - pacing: How fast bodies are written; 1 MiB at a time, as fast as the client reads, by default.
    ///   - holdAt: A body offset after which the first answer that passes it sends nothing more and
    ///     waits for the client to go (one that dies there has been sent no more); `nil` by default.
    ///   - rendezvous: How many requests every answer waits (up to 10 s) to have been made before it
    ///     sends its body, so that that many are answered at once; none by default.
    init(
        _ resource: Resource, dropsAt drops: [Int] = [], afterDrop: Resource? = nil, pacing: Pacing? = nil, holdAt: Int? = nil,
        rendezvous: Int = 0
    ) throws {
        state = Locked(
            State(resource: resource, drops: drops.sorted(), afterDrop: afterDrop, holdAt: holdAt, rendezvous: rendezvous))
        server = try ScriptedServer { [state] connection in Self.serve(connection, state: state, pacing: pacing) }
    }

    /// Serves `resource` from now on: the file changed on the server.
    func replace(with resource: Resource) {
        state.withLock { $0.resource = resource }
    }

    /// The URL of `path` on this server.
    func url(_ path: String = "/file") throws -> URL {
        guard let url = URL(string: server.baseURL + path) else { throw URLError(.badURL) }
        return url
    }

    /// The base URL, for ``TestEndpoint``.
    var baseURL: String { server.baseURL }

    /// The bytes of the answers written so far, heads included.
    var bytesWritten: Int { server.bytesWritten }

    /// The requests so far, in order.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting connections.
    func stop() {
        server.stop()
    }

    /// `count` bytes that repeat nowhere a test could confuse: each 8-byte word is a hash of its index and `seed`.
    static func content(count: Int, seed: UInt64 = 1) -> Data {
        var words = [UInt64](repeating: 0, count: (count + 7) / 8)
        for index in words.indices {
            // splitmix64 of the index: cheap, and never periodic over a test's sizes.
            var value = (UInt64(index) &+ seed &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            words[index] = value ^ (value >> 31)
        }
        return words.withUnsafeBytes { Data($0.prefix(count)) }
    }

    private static func serve(_ connection: ScriptedServer.Connection, state: Locked<State>, pacing: Pacing?) {
        let path = connection.requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let range = connection.headers["range"]
        let ifRange = connection.headers["if-range"]
        let authorization = connection.headers["authorization"]
        let request = Request(
            path: path, range: range, ifRange: ifRange, authorization: authorization, cookie: connection.headers["cookie"])
        let resource = state.withLock { state in
            state.requests.append(request)
            return state.resource
        }
        if let needed = resource.authorization, authorization != needed {
            connection.writeHead(status: 401, headers: ["WWW-Authenticate": "Bearer", "Content-Length": "0"])
            return
        }
        let length = resource.body.count
        var start = 0
        var isPartial = false
        if resource.supportsRanges, let range, let offset = offset(of: range), matches(ifRange, resource) {
            guard offset < length else {
                connection.writeHead(
                    status: 416, headers: resource.headers.merging(["Content-Range": "bytes */\(length)", "Content-Length": "0"]) { $1 })
                return
            }
            start = offset
            isPartial = true
        }
        var headers = resource.headers
        headers["Content-Length"] = "\(length - start)"
        if isPartial { headers["Content-Range"] = resource.contentRange ?? "bytes \(start)-\(length - 1)/\(length)" }
        guard connection.writeHead(status: isPartial ? 206 : 200, headers: headers) else { return }
        let waitUntil = Date(timeIntervalSinceNow: 10)
        while state.withLock({ $0.requests.count < $0.rendezvous }), Date() < waitUntil { Thread.sleep(forTimeInterval: 0.005) }
        let drop = state.withLock { state -> Int? in
            guard let index = state.drops.firstIndex(where: { $0 > start && $0 < length }) else { return nil }
            let drop = state.drops.remove(at: index)
            if let next = state.afterDrop { state.resource = next }
            return drop
        }
        let end = drop ?? length
        var offset = start
        while offset < end {
            let next = min(end, offset + (pacing?.chunk ?? 1024 * 1024))
            guard connection.write(resource.body.subdata(in: offset..<next)) else { return }
            offset = next
            let holds = state.withLock { state in
                guard let hold = state.holdAt, offset >= hold, offset < end else { return false }
                state.holdAt = nil
                return true
            }
            if holds {
                _ = connection.waitUntilClosed()
                return
            }
            if let pacing { Thread.sleep(forTimeInterval: pacing.pause) }
        }
        // A dropped connection closes here, before the end its Content-Length announced.
    }

    /// `N` of `bytes=N-`, or `nil` for any other range.
    private static func offset(of range: String) -> Int? {
        guard range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }

    /// Whether `ifRange` (if any) is the resource's strong `ETag` or its `Last-Modified` (RFC 9110 §13.1.5).
    private static func matches(_ ifRange: String?, _ resource: Resource) -> Bool {
        guard let ifRange else { return true }
        let header = { (name: String) in resource.headers.first { $0.key.lowercased() == name }?.value }
        if let tag = header("etag"), !tag.hasPrefix("W/"), tag == ifRange { return true }
        return header("last-modified") == ifRange
    }
}
