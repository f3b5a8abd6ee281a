import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests to a URL whose host is an IPv6 literal (`http://[::1]:8080/`): served, or refused before
/// anything is sent with an error that says why, never FoundationNetworking's `badURL`.
@Suite("IPv6 literal hosts")
struct IPv6HostTests {
    /// A server on `::1` that answers every request with `hello`.
    static func helloServer() throws -> ScriptedServer {
        try ScriptedServer(ipv6: true) { connection in
            connection.writeHead(headers: ["Content-Length": "5", "Content-Type": "text/plain"])
            connection.write(Data("hello".utf8))
        }
    }

    /// Whether `error` is the refusal FoundationNetworking's transport gives an IPv6 literal host.
    static func isIPv6Refusal(_ error: APIError) -> Bool {
        guard case .invalidRequest(let reason) = error else { return false }
        return reason.contains("the host [::1] is an IPv6 literal") && reason.contains("AsyncHTTPClientTransport")
            && reason.contains(".asyncHTTPClient()")
    }

    @Test(
        "send, download and stream to http://[::1]:port work, or fail on URLSession on Linux before sending with the documented error",
        arguments: TransportKind.all)
    func loopback(transport: TransportKind) async throws {
        let server = try Self.helloServer()
        defer { server.stop() }
        let client = transport.makeClient()
        let endpoint = TestEndpoint(base: server.baseURL, path: "/hello", timeout: 10)
        let directory = try TemporaryDirectory()
        #if canImport(FoundationNetworking)
            if transport.isURLSession {
                let sent = await #expect(throws: APIError.self) { try await client.send(endpoint, as: String.self) }
                let downloaded = await #expect(throws: APIError.self) {
                    try await client.download(for: endpoint, to: directory.file("hello.txt"))
                }
                let streamed = await #expect(throws: APIError.self) { try await client.stream(for: endpoint) }
                for error in [sent, downloaded, streamed] {
                    #expect(error.map(Self.isIPv6Refusal) == true, "\(String(describing: error))")
                }
                #expect(server.accepted == 0, "nothing was sent")
                return
            }
        #endif
        #expect(try await client.send(endpoint, as: String.self) == "hello")
        let file = try await client.download(for: endpoint, to: directory.file("hello.txt"))
        #expect(try Data(contentsOf: file.fileURL) == Data("hello".utf8))
        var streamed = Data()
        for try await chunk in try await client.stream(for: endpoint) { streamed.append(chunk) }
        #expect(streamed == Data("hello".utf8))
    }

    #if canImport(FoundationNetworking)
        @Test("On Linux, a redirect to an IPv6 literal host over URLSession fails with the documented error, not badURL")
        func redirectToIPv6() async throws {
            let target = try Self.helloServer()
            defer { target.stop() }
            let redirecting = try ScriptedServer { connection in
                connection.writeHead(status: 302, headers: ["Location": "\(target.baseURL)/hello", "Content-Length": "0"])
            }
            defer { redirecting.stop() }
            let error = await #expect(throws: APIError.self) {
                try await TransportKind.urlSession.makeClient().send(TestEndpoint(base: redirecting.baseURL, timeout: 10), as: String.self)
            }
            #expect(error.map(Self.isIPv6Refusal) == true, "\(String(describing: error))")
        }
    #endif
}
