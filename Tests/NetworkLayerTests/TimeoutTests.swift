import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Timeouts over real sockets")
struct TimeoutTests {
    @Test("Without an endpoint timeout, the session's timeout applies")
    func sessionTimeout() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let configuration = NetworkClient.defaultConfiguration()
        configuration.timeoutIntervalForRequest = 1
        let client = NetworkClient(configuration: configuration)
        let started = Date()
        let result = await client.fetch(TestEndpoint(base: server.baseURL), as: Empty.self)
        #expect(result.failure == .timedOut)
        #expect(Date().timeIntervalSince(started) < 30, "the session's 1 s, not the request default of 60 s")
    }

    @Test("A sub-second endpoint timeout never fires before its time")
    func subSecondTimeout() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let started = Date()
        let result = await NetworkClient().fetch(TestEndpoint(base: server.baseURL, timeout: 0.5), as: Empty.self)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.failure == .timedOut)
        #expect(elapsed >= 0.5, "fired after \(elapsed) s")
        #expect(elapsed < 30)
    }
}
