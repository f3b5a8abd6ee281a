import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("data(for:): bodies collected in memory as they arrive")
struct DataTransferTests {
    @Test("The body arrives whole, in order, with progress against the Content-Length ending at 100 %")
    func collectsBody() async throws {
        let stubbed = StubbedClient()
        let body = Pattern.data(count: 200_000)
        stubbed.stubs.register(
            .get, "/items",
            .chunked([body.prefix(50_000), body.dropFirst(50_000).prefix(70_000), body.dropFirst(120_000)], headers: ["ETag": "v7"]))
        let log = ProgressLog()
        let response = try await stubbed.client.data(for: TestEndpoint(), progress: log.handler)
        #expect(response.body == body)
        #expect(response.statusCode == 200)
        #expect(response.headers["ETag"] == "v7")
        #expect(log.isMonotonic)
        #expect(log.all.count >= 3, "a report per chunk, not only the last")
        #expect(log.all.last == TransferProgress(completedBytes: 200_000, expectedBytes: 200_000))
    }

    @Test("A status outside the acceptable codes fails with the status and the body")
    func rejectedStatus() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .json(#"{"error":"gone"}"#, statusCode: 410))
        let error = await #expect(throws: APIError.self) { try await stubbed.client.data(for: TestEndpoint()) }
        #expect(error?.statusCode == 410)
        #expect(error?.response?.text == #"{"error":"gone"}"#)
    }

    @Test("Each attempt is adapted, and a 503 is retried")
    func interceptors() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .text("ok"))
        let adapter = HeaderAdapter(header: "X-Adapted", value: "yes")
        let response = try await client(stubs, [adapter, ScriptedRetrier { _, _ in .retry }]).data(for: TestEndpoint())
        #expect(response.text == "ok")
        #expect(stubs.requests.map { $0.headers["X-Adapted"] } == ["yes", "yes"])
    }

    @Test("A POST body is sent, and the answer collected")
    func sendsBody() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.post, "/items", .json(#"{"id":1,"title":"Heat"}"#, statusCode: 201))
        let response = try await stubbed.client.data(
            for: TestEndpoint(method: .post, task: .requestJSONBody(Movie(id: 1, title: "Heat"))))
        #expect(try JSONDecoder().decode(Movie.self, from: response.body) == Movie(id: 1, title: "Heat"))
        #expect(stubbed.stubs.requests.first?.bodyText == #"{"id":1,"title":"Heat"}"#)
    }
}
