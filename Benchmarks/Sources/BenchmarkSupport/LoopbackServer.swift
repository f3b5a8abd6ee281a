import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for the loopback benchmarks, meant to run in its own
/// process so that its work is not counted in the client's CPU time or memory.
///
/// One thread per connection, blocking sockets, keep-alive, `TCP_NODELAY`. Routes:
/// - `GET /movies` answers a ~1 KB ``MoviePage`` JSON.
/// - `GET /bytes/<n>` answers `n` bytes, written from a 1 MiB buffer (never held whole).
/// - `POST`/`PUT /upload` reads and discards the body (`Content-Length` or chunked) and answers
///   `{"received":<n>}`.
///
/// ``serve()`` prints the port on the first line of standard output and runs until its standard
/// input closes, which happens when the process that started it exits, however it exits.
public enum LoopbackServer {
    /// The environment variable that makes a benchmark executable run as this server instead.
    public static let environmentKey = "NETWORKLAYER_BENCHMARK_SERVER"

    /// Whether this process was started to be the server.
    public static var isRequested: Bool {
        ProcessInfo.processInfo.environment[environmentKey] == "1"
    }

    /// Serves until standard input reaches its end, then exits the process.
    public static func serve() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let listener = socket(AF_INET, socketStream, 0)
        guard listener >= 0 else { fail("socket") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound, listen(listener, 1024) == 0 else { fail("bind or listen") }
        FileHandle.standardOutput.write(Data("\(UInt16(bigEndian: address.sin_port))\n".utf8))

        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) > 0 {}
            exit(0)
        }

        let movies = MoviePage.json(bytes: 1024)
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let thread = Thread {
                var handler = Connection(socket: connection, movies: movies)
                handler.run()
                close(connection)
            }
            thread.stackSize = 1 << 18
            thread.start()
        }
    }

    private static func fail(_ what: String) -> Never {
        FileHandle.standardError.write(Data("LoopbackServer: \(what) failed, errno \(errno)\n".utf8))
        exit(1)
    }

    #if canImport(Glibc)
        private static let socketStream = Int32(SOCK_STREAM.rawValue)
    #else
        private static let socketStream = SOCK_STREAM
    #endif
}

/// One keep-alive connection: requests are read, bodies drained, responses written, until the peer closes.
private struct Connection {
    let socket: Int32
    let movies: Data
    /// Bytes read and not yet consumed are `buffer[start..<end]`.
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init(socket: Int32, movies: Data) {
        self.socket = socket
        self.movies = movies
    }

    mutating func run() {
        while let head = readHead() {
            guard let received = drainBody(of: head) else { return }
            guard respond(to: head, received: received), !head.close else { return }
        }
    }

    private struct Head {
        var method = ""
        var target = ""
        var contentLength = 0
        var chunked = false
        var close = false
    }

    /// Reads up to the blank line after the headers and parses what the server needs.
    private mutating func readHead() -> Head? {
        // Bytes after `start` already known not to end the head; `fill` keeps them, moved or not.
        var checked = 0
        while true {
            var index = start + max(0, checked - 3)
            while index + 3 < end {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    let text = String(decoding: buffer[start..<index], as: UTF8.self)
                    start = index + 4
                    return Self.parse(text)
                }
                index += 1
            }
            checked = end - start
            guard fill() else { return nil }
        }
    }

    private static func parse(_ text: String) -> Head {
        var head = Head()
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ") ?? []
        head.method = requestLine.first.map(String.init) ?? ""
        head.target = requestLine.count > 1 ? String(requestLine[1]) : ""
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length": head.contentLength = Int(value) ?? 0
            case "transfer-encoding": head.chunked = value.lowercased().contains("chunked")
            case "connection": head.close = value.lowercased() == "close"
            default: break
            }
        }
        return head
    }

    /// Reads and discards the request body; returns its length, or `nil` when the peer went away.
    private mutating func drainBody(of head: Head) -> Int? {
        guard head.chunked else {
            return discard(head.contentLength) ? head.contentLength : nil
        }
        var total = 0
        while true {
            guard let line = readLine() else { return nil }
            let size = Int(line.split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 {
                // Trailers, if any, end with an empty line.
                while let trailer = readLine(), !trailer.isEmpty {}
                return total
            }
            guard discard(size), readLine() != nil else { return nil }
            total += size
        }
    }

    private mutating func readLine() -> String? {
        while true {
            var index = start
            while index + 1 < end {
                if buffer[index] == 13, buffer[index + 1] == 10 {
                    let line = String(decoding: buffer[start..<index], as: UTF8.self)
                    start = index + 2
                    return line
                }
                index += 1
            }
            guard fill() else { return nil }
        }
    }

    private mutating func discard(_ count: Int) -> Bool {
        var remaining = count
        while remaining > 0 {
            if start == end, !fill() { return false }
            let taken = min(remaining, end - start)
            start += taken
            remaining -= taken
        }
        return true
    }

    /// Reads more bytes after the unconsumed ones, moving those to the front first.
    private mutating func fill() -> Bool {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            if start == 0 { buffer += [UInt8](repeating: 0, count: buffer.count) }
            buffer.withUnsafeMutableBufferPointer { pointer in
                _ = memmove(pointer.baseAddress!, pointer.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            recv(socket, pointer.baseAddress! + end, pointer.count - end, 0)
        }
        guard count > 0 else { return false }
        end += count
        return true
    }

    private func respond(to head: Head, received: Int) -> Bool {
        let path = head.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        if path == "/movies" {
            return send(status: "200 OK", contentType: "application/json", body: movies)
        }
        if path == "/upload", head.method == "POST" || head.method == "PUT" {
            return send(status: "200 OK", contentType: "application/json", body: Data(#"{"received":\#(received)}"#.utf8))
        }
        if path.hasPrefix("/bytes/"), let count = Int(path.dropFirst("/bytes/".count)) {
            return sendBytes(count)
        }
        return send(status: "404 Not Found", contentType: "text/plain", body: Data("no route for \(path)\n".utf8))
    }

    private func header(status: String, contentType: String, length: Int) -> Data {
        Data("HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\n\r\n".utf8)
    }

    private func send(status: String, contentType: String, body: Data) -> Bool {
        write(header(status: status, contentType: contentType, length: body.count) + body)
    }

    private func sendBytes(_ count: Int) -> Bool {
        guard write(header(status: "200 OK", contentType: "application/octet-stream", length: count)) else { return false }
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, Self.filler.count)
            guard write(Self.filler.prefix(chunk)) else { return false }
            remaining -= chunk
        }
        return true
    }

    private func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                    let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    let sent = Darwin.send(socket, bytes.baseAddress! + offset, bytes.count - offset, 0)
                #endif
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// What `/bytes/<n>` sends, a megabyte at a time.
    private static let filler = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
}
