import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends identical GETs that are in flight at the same time once: the first goes to the transport,
/// the others wait for its answer.
struct Deduplicator: Interceptor {
    private actor InFlight {
        var waiters: [URL: [CheckedContinuation<Result<HTTPResponse, APIError>, Never>]] = [:]

        /// Whether the caller leads (sends); otherwise it waits for the leader's answer.
        func join(_ url: URL) async -> Result<HTTPResponse, APIError>? {
            guard waiters[url] != nil else {
                waiters[url] = []
                return nil
            }
            return await withCheckedContinuation { waiters[url, default: []].append($0) }
        }

        func finish(_ url: URL, with result: Result<HTTPResponse, APIError>) {
            for waiter in waiters.removeValue(forKey: url) ?? [] { waiter.resume(returning: result) }
        }
    }

    private let inFlight = InFlight()

    func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        guard request.httpMethod ?? "GET" == "GET", let url = request.url else { return try await next(request) }
        if let shared = await inFlight.join(url) { return TransportResponse(try shared.get()) }
        let result: Result<HTTPResponse, APIError>
        do throws(APIError) {
            result = .success(try await next(request).collected())
        } catch {
            result = .failure(error)
        }
        await inFlight.finish(url, with: result)
        return TransportResponse(try result.get())
    }
}

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
        let client = NetworkClient(transport: stubs, interceptors: [Deduplicator()])
        let movies = try await withThrowingTaskGroup(of: Movie.self) { group in
            for _ in 0..<50 { group.addTask { try await client.send(TestEndpoint(), as: Movie.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(movies.count == 50)
        #expect(movies.allSatisfy { $0 == Movie(id: 1, title: "Heat") })
        #expect(stubs.requests.count == 1)
    }
}
