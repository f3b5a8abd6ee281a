import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("A request built by hand works with both verbs and with progress")
struct HandBuiltRequestTests {
    private func request(_ path: String, method: String = "GET") throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "https://h.test\(path)")))
        request.httpMethod = method
        return request
    }

    @Test("send(with:) decodes, and throws the APIError that fetch(with:) returns")
    func send() async throws {
        let stubs = StubTransport()
        stubs.register(HTTPMethod(rawValue: "PURGE"), "/cache", .json(#"{"id":9,"title":"I"}"#))
        stubs.register(.get, "/gone", .status(410))
        let client = NetworkClient(transport: stubs)

        #expect(try await client.send(with: request("/cache", method: "PURGE"), as: Movie.self) == Movie(id: 9, title: "I"))
        let error = await #expect(throws: APIError.self) { try await client.send(with: request("/gone"), as: Empty.self) }
        #expect(error?.statusCode == 410)
        #expect(await client.fetch(with: try request("/gone"), as: Empty.self).failure == error)
    }

    @Test("response(for:progress:) collects a hand-built request's body with progress")
    func responseWithProgress() async throws {
        let stubs = StubTransport()
        let body = Pattern.data(count: 3_000)
        stubs.register(.get, "/items", .chunked([body.prefix(1_000), body.dropFirst(1_000)], headers: ["Content-Length": "3000"]))
        let log = ProgressLog()

        let response = try await NetworkClient(transport: stubs).response(with: request("/items"), progress: log.handler)

        #expect(response.body == body)
        let partial: [Int64] = log.all.map(\.completedBytes).filter { $0 > 0 && $0 < 3_000 }
        #expect(partial == [1_000], "a report per chunk")
        #expect(log.all.last == TransferProgress(completedBytes: 3_000, expectedBytes: 3_000))
    }
}
