import Foundation
import NetworkLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP server on 127.0.0.1 that accepts connections and never answers, so requests to it
/// stay in flight until they are cancelled. It reports how many connections carried a request
/// and how many the client still holds open, to prove a cancelled request was really torn down.
final class SilentServer: Sendable {
    /// The port it listens on, chosen by the system.
    let port: UInt16
    private let listener: Int32
    /// Whether ``stop()`` has been called: the accept loop then closes the listener (see ``AcceptLoop``).
    private let isStopped = Locked(false)
    private let connections = Locked<[Accepted]>([])

    /// An accepted connection, and what has been seen of it.
    private struct Accepted {
        let descriptor: Int32
        /// Whether the client has sent anything on it (a request, or part of one).
        var hasReceived = false
        /// Whether the client has closed it.
        var isClosed = false
    }

    struct StartError: Error, CustomStringConvertible {
        let step: String
        var description: String { "SilentServer could not \(step): errno \(errno)" }
    }

    /// Starts listening; `greeting`, when given, is written to every connection as it is accepted
    /// (plain HTTP to a client that expects TLS, say), and then the server is silent.
    init(greeting: Data? = nil) throws {
        #if canImport(Glibc)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw StartError(step: "create a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 1024) == 0 else {
            close(listener)
            throw StartError(step: "bind and listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        self.port = UInt16(bigEndian: address.sin_port)
        let connections = self.connections
        AcceptLoop.start(listener, isStopped: isStopped) { connection in
            if let greeting {
                _ = greeting.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Self.noSignal) }
            }
            connections.withLock { $0.append(Accepted(descriptor: connection)) }
        }
    }

    /// The base URL of the server, for example `http://127.0.0.1:40123`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The number of accepted connections the client has not closed.
    var openCount: Int { polled().filter { !$0.isClosed }.count }

    /// The number of connections on which the client has sent something: requests that reached the
    /// server, rather than connections a transport opened ahead of them.
    var requestCount: Int { polled().filter(\.hasReceived).count }

    /// The number of connections that carried a request and that the client has not closed: those
    /// of requests still in flight. (A connection a transport opened for a request that was
    /// cancelled before it was sent may stay open, idle in its pool.)
    var openRequestCount: Int { polled().filter { $0.hasReceived && !$0.isClosed }.count }

    /// Every connection after reading, without waiting, what its client sent so far.
    private func polled() -> [Accepted] {
        connections.withLock { connections in
            var buffer = [UInt8](repeating: 0, count: 4096)
            for index in connections.indices where !connections[index].isClosed {
                while true {
                    let count = recv(connections[index].descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if count > 0 {
                        connections[index].hasReceived = true
                        continue
                    }
                    if count == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK) { connections[index].isClosed = true }
                    break
                }
            }
            return connections
        }
    }

    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal = Int32(0)
    #endif

    /// Closes the listener and every connection; once.
    func stop() {
        guard AcceptLoop.stop(listener, isStopped: isStopped) else { return }
        connections.withLock { connections in
            connections.forEach { close($0.descriptor) }
            connections.removeAll()
        }
    }

    deinit { stop() }
}
