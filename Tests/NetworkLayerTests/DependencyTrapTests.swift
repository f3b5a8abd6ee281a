import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a server can do to end the process inside a dependency, where NetworkLayer has no hook to
/// absorb it: each runs in a child process, which must still die of it. When a fix upstream makes
/// one of these pass, the test fails, and the docs that warn about it (ChoosingATransport, LinuxNotes)
/// can lose the warning.
///
/// Should the scenario end in an error instead, the child exits normally, and the test fails too.
@Suite("Dependency traps: scenarios that still end the process, each in a child process")
struct DependencyTrapTests {
    #if canImport(FoundationNetworking) && !os(Windows)
        @Test("FoundationNetworking still traps on a chunked response with trailers: 'Transfer completed, but there's no response'")
        func trailers() async {
            await #expect(processExitsWith: .signal(SIGILL)) {
                do {
                    let server = try ScriptedServer { connection in
                        connection.writeHead(headers: ["Transfer-Encoding": "chunked", "Trailer": "X-Checksum"])
                        connection.writeChunk(Data(#"{"ok":true}"#.utf8))
                        connection.write(Data("0\r\nX-Checksum: 1234\r\n\r\n".utf8))
                    }
                    _ = try await NetworkClient().response(for: TestEndpoint(base: server.baseURL))
                } catch {
                    print("ended with an error instead: \(error)")
                }
                exit(0)
            }
        }
    #endif

    #if AsyncHTTPClient
        @Test(
            "AsyncHTTPClient still traps on a status below 100 followed by a body (HTTPRequestStateMachine)",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func statusBelow100(transport: TransportKind) async {
            await #expect(processExitsWith: .signal(SIGILL)) {
                do {
                    let server = try ScriptedServer { connection in
                        connection.write(Data("HTTP/1.1 099 Before\r\nContent-Length: 12\r\n\r\n{\"ok\": true}".utf8))
                    }
                    _ = try await NetworkClient(transport: .asyncHTTPClient()).response(for: TestEndpoint(base: server.baseURL))
                } catch {
                    print("ended with an error instead: \(error)")
                }
                exit(0)
            }
        }
    #endif
}
