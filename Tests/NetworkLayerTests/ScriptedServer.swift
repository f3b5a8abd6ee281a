import Foundation
import NetworkLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 (or `::1`) whose every connection runs the test's script: read the
/// request, then write a response in pieces, trickle, stall or wait for the client to hang up.
/// It counts the bytes it managed to write and the connections the client closed, to show that a
/// transfer was held back or really torn down.
final class ScriptedServer: Sendable {
    /// One accepted connection, handed to the script on its own thread.
    struct Connection: Sendable {
        fileprivate let socket: Int32
        fileprivate let server: ScriptedServer
        /// The request line, for example `GET /file HTTP/1.1`.
        let requestLine: String
        /// The request headers, names lowercased.
        let headers: [String: String]
        /// The number of body bytes the request carried (read and discarded).
        let bodyLength: Int

        /// Writes a response head, with `Connection: close` unless `headers` say otherwise (each
        /// connection serves one request); returns whether the client took it.
        @discardableResult
        func writeHead(status: Int = 200, headers: [String: String]) -> Bool {
            var head = "HTTP/1.1 \(status) Status\r\n"
            var headers = headers
            if !headers.keys.contains(where: { $0.lowercased() == "connection" }) { headers["Connection"] = "close" }
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            return write(Data((head + "\r\n").utf8))
        }

        /// Writes bytes, blocking while the client does not read; returns whether all were written.
        @discardableResult
        func write(_ data: Data) -> Bool {
            data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let sent = send(socket, base + offset, buffer.count - offset, Self.noSignal)
                    guard sent > 0 else { return false }
                    offset += sent
                    server.state.withLock { $0.bytesWritten += sent }
                }
                return true
            }
        }

        /// Writes one chunk of a `Transfer-Encoding: chunked` body.
        @discardableResult
        func writeChunk(_ data: Data) -> Bool {
            write(Data(String(data.count, radix: 16).utf8) + Data("\r\n".utf8) + data + Data("\r\n".utf8))
        }

        /// Ends a chunked body.
        @discardableResult
        func endChunks() -> Bool {
            write(Data("0\r\n\r\n".utf8))
        }

        /// Waits until the client closes the connection, up to `timeout` seconds; returns whether it did.
        @discardableResult
        func waitUntilClosed(timeout: TimeInterval = 30) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 50) >= 0 else { return true }
                if descriptor.revents != 0 {
                    let count = recv(socket, &buffer, buffer.count, 0)
                    if count <= 0 {
                        server.state.withLock { $0.closedByClient += 1 }
                        return true
                    }
                }
            }
            return false
        }

        #if canImport(Glibc)
            fileprivate static let noSignal = Int32(MSG_NOSIGNAL)
        #else
            fileprivate static let noSignal = Int32(0)
        #endif
    }

    fileprivate struct State {
        var bytesWritten = 0
        var closedByClient = 0
        var accepted = 0
    }

    /// The port it listens on, chosen by the system.
    let port: UInt16
    /// The host of ``baseURL``: `127.0.0.1`, or `[::1]` on IPv6.
    let host: String
    private let listener: Int32
    /// Whether ``stop()`` has been called: the accept loop then closes the listener (see ``AcceptLoop``).
    private let isStopped = Locked(false)
    fileprivate let state = Locked(State())

    /// Starts listening; `script` runs for every connection, on a thread of its own.
    /// - Parameters:
    ///   - ipv6: Whether to listen on the IPv6 loopback `::1` (``baseURL`` is then `http://[::1]:…`)
    ///     instead of 127.0.0.1; `false` by default.
    ///   - script: What each connection does once its request is read.
    init(ipv6: Bool = false, script: @escaping @Sendable (Connection) -> Void) throws {
        let family = ipv6 ? AF_INET6 : AF_INET
        #if canImport(Glibc)
            let listener = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(family, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw SilentServer.StartError(step: "create a socket") }
        var address = sockaddr_storage()
        let size: socklen_t
        if ipv6 {
            size = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_addr = in6addr_loopback
                }
            }
        } else {
            size = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_addr.s_addr = inet_addr("127.0.0.1")
                }
            }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) }
        }
        guard bound == 0, listen(listener, 1024) == 0 else {
            close(listener)
            throw SilentServer.StartError(step: "bind and listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        // The port sits at the same offset in both address structures.
        let port = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        self.listener = listener
        self.port = UInt16(bigEndian: port)
        host = ipv6 ? "[::1]" : "127.0.0.1"
        AcceptLoop.start(listener, isStopped: isStopped) { [self] connection in
            state.withLock { $0.accepted += 1 }
            Thread.detachNewThread { [self] in
                defer { close(connection) }
                guard let request = Self.readRequest(connection) else { return }
                script(
                    Connection(
                        socket: connection, server: self, requestLine: request.line, headers: request.headers,
                        bodyLength: request.bodyLength))
            }
        }
    }

    /// The base URL, for example `http://127.0.0.1:40123` or `http://[::1]:40123`.
    var baseURL: String { "http://\(host):\(port)" }

    /// The response bytes the clients have accepted so far, heads included.
    var bytesWritten: Int { state.withLock { $0.bytesWritten } }

    /// The connections a client closed while a script waited for it to (see ``Connection/waitUntilClosed(timeout:)``).
    var closedByClient: Int { state.withLock { $0.closedByClient } }

    /// The connections accepted so far.
    var accepted: Int { state.withLock { $0.accepted } }

    /// Stops accepting connections; once.
    func stop() {
        AcceptLoop.stop(listener, isStopped: isStopped)
    }

    deinit { stop() }

    /// Reads a `Transfer-Encoding: chunked` body whose first bytes are `start`; returns the length of
    /// its data, or `nil` when the connection ends first.
    private static func readChunkedBody(_ socket: Int32, after start: Data) -> Int? {
        var pending = start
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let crlf = Data("\r\n".utf8)
        /// Makes sure `count` bytes are pending, reading more as needed.
        func fill(_ count: Int) -> Bool {
            while pending.count < count {
                let read = recv(socket, &buffer, buffer.count, 0)
                guard read > 0 else { return false }
                pending.append(buffer, count: read)
            }
            return true
        }
        var length = 0
        while true {
            while pending.range(of: crlf) == nil {
                guard fill(pending.count + 1) else { return nil }
            }
            guard let lineEnd = pending.range(of: crlf) else { return nil }
            let sizeText = String(decoding: pending[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            pending = Data(pending[lineEnd.upperBound...])
            if size == 0 {
                // No trailers are sent by the clients under test: the final CRLF ends the body.
                guard fill(2) else { return nil }
                return length
            }
            guard fill(size + 2) else { return nil }
            length += size
            pending = Data(pending[(size + 2)...])
        }
    }

    /// Reads a request head and any `Content-Length` or chunked body.
    private static func readRequest(_ socket: Int32) -> (line: String, headers: [String: String], bodyLength: Int)? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let separator = Data("\r\n\r\n".utf8)
        while received.range(of: separator) == nil {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(buffer, count: count)
        }
        guard let end = received.range(of: separator) else { return nil }
        let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let line = lines.removeFirst()
        var headers: [String: String] = [:]
        for field in lines {
            guard let colon = field.firstIndex(of: ":") else { continue }
            headers[field[..<colon].lowercased()] = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let length = readChunkedBody(socket, after: Data(received[end.upperBound...])) else { return nil }
            return (line, headers, length)
        }
        let length = Int(headers["content-length"] ?? "") ?? 0
        var remaining = length - (received.count - end.upperBound)
        while remaining > 0 {
            let count = recv(socket, &buffer, min(buffer.count, remaining), 0)
            guard count > 0 else { return nil }
            remaining -= count
        }
        return (line, headers, length)
    }
}
