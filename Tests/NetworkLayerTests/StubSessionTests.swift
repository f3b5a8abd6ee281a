import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("StubSession")
struct StubSessionTests {
    @Test("Routes match on method and path, whatever the host")
    func matching() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/a", .text("get a"))
        stubs.register(.post, "/a", .text("post a"))
        stubs.register(.get, "b", .text("get b"))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
        #expect(try await client.send(TestEndpoint(base: "https://one.test", path: "/a"), as: String.self) == "get a")
        #expect(try await client.send(TestEndpoint(base: "http://two.test", path: "/a", method: .post), as: String.self) == "post a")
        #expect(try await client.send(TestEndpoint(path: "/b"), as: String.self) == "get b")
    }

    @Test("Paths match percent-decoded")
    func decodedPaths() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/movie/a b/é", .text("found"))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
        #expect(try await client.send(TestEndpoint(path: "/movie/a b/é"), as: String.self) == "found")
        #expect(stubs.requests.first?.url.absoluteString == "https://api.example.com/movie/a%20b/%C3%A9")
    }

    @Test("A route registered several times answers in order, then repeats the last")
    func sequence() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(503))
        stubs.register(.get, "/items", .text("second"))
        stubs.register(.get, "/items", .text("last"))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
        #expect(await client.fetch(TestEndpoint(), as: String.self).failure?.statusCode == 503)
        #expect(try await client.send(TestEndpoint(), as: String.self) == "second")
        #expect(try await client.send(TestEndpoint(), as: String.self) == "last")
        #expect(try await client.send(TestEndpoint(), as: String.self) == "last")
    }

    @Test("An unmatched request fails with a URLError naming it, and is still recorded")
    func unmatched() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/known", .status(200))
        let error = try #require(
            await NetworkClient(transport: URLSessionTransport(session: stubs.session)).fetch(
                TestEndpoint(path: "/unknown"), as: Empty.self
            ).failure)
        guard case .requestFailed(let urlError) = error else {
            Issue.record("expected .requestFailed, got \(error)")
            return
        }
        #expect(urlError.code == .resourceUnavailable)
        #expect(error.description.contains("No stub for GET /unknown; registered: [GET /known]"))
        #expect(stubs.requests.map(\.path) == ["/unknown"])
    }

    @Test("Recorded requests carry method, URL, headers and body from httpBody or httpBodyStream")
    func recording() async throws {
        let stubs = StubSession()
        stubs.register(.put, "/upload", .status(204))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
        let endpoint = TestEndpoint(
            path: "/upload", method: .put, headers: ["X-Token": "t"],
            task: .requestParameters(bodyParameters: ["k": "v"], bodyEncoding: .formURLEncoded, urlParameters: ["q": 1])
        )
        _ = try await client.send(endpoint, as: Empty.self)
        var streamed = URLRequest(url: try #require(URL(string: "https://h.test/upload")))
        streamed.httpMethod = "PUT"
        streamed.httpBodyStream = InputStream(data: Data("streamed body".utf8))
        _ = try await client.response(with: streamed)

        let recorded = stubs.requests(.put, "/upload")
        #expect(recorded.count == 2)
        #expect(recorded.first?.query == "q=1")
        #expect(recorded.first?.headers["x-token"] == "t")
        #expect(recorded.first?.bodyText == "k=v")
        #expect(recorded.last?.bodyText == "streamed body")
        #expect(recorded.last?.query == nil)
    }

    @Test("A stubbed delay holds the answer back")
    func delay() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .text("late", delay: 0.2))
        let started = Date()
        let text = try await NetworkClient(transport: URLSessionTransport(session: stubs.session)).send(TestEndpoint(), as: String.self)
        #expect(text == "late")
        #expect(Date().timeIntervalSince(started) >= 0.2)
    }

    @Test("Encodable stubs are encoded with sorted keys")
    func encodableStub() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", try .json(encoding: Movie(id: 2, title: "B"), statusCode: 201))
        let response = try await NetworkClient(transport: URLSessionTransport(session: stubs.session)).response(for: TestEndpoint())
        #expect(response.statusCode == 201)
        #expect(response.text == #"{"id":2,"title":"B"}"#)
        #expect(response.headers.contentType == "application/json")
    }
}
