import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("response(for:progress:): bodies collected in memory as they arrive")
struct DataTransferTests {
    @Test("The body arrives whole, in order, with progress against the Content-Length ending at 100 %")
    func collectsBody() async throws {
        let stubbed = StubbedClient()
        let body = Pattern.data(count: 200_000)
        stubbed.stubs.register(
            .get, "/items",
            .chunked(
                [body.prefix(50_000), body.dropFirst(50_000).prefix(70_000), body.dropFirst(120_000)],
                headers: ["ETag": "v7", "Content-Length": "200000"]))
        let log = ProgressLog()
        let response = try await stubbed.client.response(for: TestEndpoint(), progress: log.handler)
        #expect(response.body == body)
        #expect(response.statusCode == 200)
        #expect(response.headers["ETag"] == "v7")
        #expect(log.isMonotonic)
        let partial: [Int64] = log.all.map(\.completedBytes).filter { $0 > 0 && $0 < 200_000 }
        #expect(partial == [50_000, 120_000], "a report per chunk")
        #expect(log.all.allSatisfy { $0.expectedBytes == 200_000 }, "every report is against the Content-Length")
        #expect(log.all.last == TransferProgress(completedBytes: 200_000, expectedBytes: 200_000))
    }

    @Test("An error page before a retry is not progress: the reports follow the accepted body alone")
    func errorPageIsNotProgress() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .text(String(repeating: "e", count: 5_000), statusCode: 503))
        stubs.register(.get, "/items", .text("ok"))
        let log = ProgressLog()
        let retrier = ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry }
        let response = try await client(stubs, [retrier]).response(for: TestEndpoint(), progress: log.handler)
        #expect(response.text == "ok")
        #expect(log.all.allSatisfy { $0.completedBytes <= 2 }, "the 503's 5,000 bytes were never reported")
        #expect(log.all.last == TransferProgress(completedBytes: 2, expectedBytes: 2))
    }

    @Test("An empty body still ends with a report of 100 %")
    func emptyBody() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .status(204))
        let log = ProgressLog()
        let response = try await stubbed.client.response(for: TestEndpoint(), progress: log.handler)
        #expect(response.statusCode == 204)
        #expect(log.all.last == TransferProgress(completedBytes: 0, expectedBytes: 0))
    }

    @Test("A status outside the acceptable codes fails with the status and the body")
    func rejectedStatus() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json(#"{"error":"gone"}"#, statusCode: 410))
        let error = await #expect(throws: APIError.self) { try await stubbed.client.response(for: TestEndpoint(), progress: { _ in }) }
        #expect(error?.statusCode == 410)
        #expect(error?.response?.text == #"{"error":"gone"}"#)
    }

    @Test("Each attempt is adapted, and a 503 is retried")
    func interceptors() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .text("ok"))
        let adapter = HeaderAdapter(header: "X-Adapted", value: "yes")
        let response = try await client(stubs, [adapter, ScriptedRetrier { _, context in context.attempt < 3 ? .retry : .doNotRetry }])
            .response(for: TestEndpoint(), progress: { _ in })
        #expect(response.text == "ok")
        #expect(stubs.requests.map { $0.headers["X-Adapted"] } == ["yes", "yes"])
    }

    @Test("A POST body is sent, and the answer collected")
    func sendsBody() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.post, "/items", .json(#"{"id":1,"title":"Heat"}"#, statusCode: 201))
        let response = try await stubbed.client.response(
            for: TestEndpoint(method: .post, task: .requestJSONBody(Movie(id: 1, title: "Heat"))), progress: { _ in })
        #expect(try JSONDecoder().decode(Movie.self, from: response.body) == Movie(id: 1, title: "Heat"))
        let sent = try #require(stubbed.stubs.requests.first?.body)
        #expect(try JSONDecoder().decode(Movie.self, from: sent) == Movie(id: 1, title: "Heat"))
    }
}
