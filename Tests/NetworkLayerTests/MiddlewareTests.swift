import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Interceptors that answer by themselves")
struct MiddlewareTests {
    // The ETag cache of ChoosingATransport.md and its test are in ChoosingATransportArticleTests.

    @Test("Without a cache, a 304 is an unacceptable status")
    func withoutCache() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .status(304))
        await #expect(throws: APIError.self) { try await NetworkClient(transport: stubs).send(TestEndpoint(), as: Movie.self) }
    }

    @Test("Fifty identical GETs at once reach the transport once, and each gets the answer")
    func deduplication() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"Heat"}"#, delay: 0.2))
        let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: [Deduplicator()]))
        let movies = try await withThrowingTaskGroup(of: Movie.self) { group in
            for _ in 0..<50 { group.addTask { try await client.send(TestEndpoint(), as: Movie.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(movies.count == 50)
        #expect(movies.allSatisfy { $0 == Movie(id: 1, title: "Heat") })
        #expect(stubs.requests.count == 1)
    }
}
