import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The smallest client a user can write: its transport and a configuration of defaults.
struct MinimalClient: APIClient {
    let transport: any HTTPTransport
    let configuration = ClientConfiguration()
}

extension MinimalClient {
    /// A client over `session`, as a user wraps one in a ``URLSessionTransport``.
    init(session: URLSession) {
        transport = URLSessionTransport(session: session)
    }
}

struct CustomError: Error, Sendable, CustomStringConvertible {
    var description: String { "the disk is on fire" }
}

@Suite("APIClient sending and validation")
struct ClientTests {
    @Test("A client that names only its transport is complete and uses the documented defaults")
    func minimalClient() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"A"}"#))
        let client = MinimalClient(session: stubs.session)
        #expect(client.configuration.acceptableStatusCodes == Set(200..<300))
        #expect(client.configuration.callbackQueue.label == DispatchQueue.main.label)
        #expect(try await client.fetch(TestEndpoint(), as: Movie.self).get() == Movie(id: 1, title: "A"))
    }

    @Test("NetworkClient() is ready with its documented configuration")
    func networkClientDefaults() throws {
        let client = NetworkClient()
        let session = try #require(client.transport as? URLSessionTransport).session
        #expect(session.configuration.urlCache == nil)
        #expect(session.configuration.httpMaximumConnectionsPerHost == 64)
        #expect(client.configuration.acceptableStatusCodes == Set(200..<300))
        #expect(client.configuration.callbackQueue.label == DispatchQueue.main.label)
    }

    @Test("What the endpoint describes is what the server receives")
    func sentRequest() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.post, "/3/movie/550/rating", .json(#"{"status_code":1}"#, statusCode: 201))
        let endpoint = TestEndpoint(
            base: "https://api.example.com/3?api_key=KEY",
            path: "movie/550/rating",
            method: .post,
            headers: ["Accept": "application/json"],
            task: .requestJSONBody(["value": 8.5], urlParameters: ["session_id": "a b"])
        )
        _ = try await stubbed.client.send(endpoint, as: Empty.self)
        let sent = try #require(stubbed.stubs.requests.first)
        #expect(stubbed.stubs.requests.count == 1)
        #expect(sent.method == .post)
        #expect(sent.url.absoluteString == "https://api.example.com/3/movie/550/rating?api_key=KEY&session_id=a%20b")
        #expect(sent.headers["accept"] == "application/json")
        #expect(sent.headers["content-type"] == "application/json")
        #expect(sent.bodyText == #"{"value":8.5}"#)
    }

    @Test("A status outside the acceptable codes fails with the status, headers and body", arguments: [301, 404, 422, 500, 503])
    func unacceptableStatus(status: Int) async throws {
        let stubbed = StubbedClient()
        let body = #"{"status_message":"nope"}"#
        stubbed.stubs.register(
            .get, "/items",
            StubResponse(statusCode: status, headers: ["Content-Type": "application/json", "X-Trace": "t1"], body: Data(body.utf8))
        )
        let error = try #require(await stubbed.client.fetch(TestEndpoint(), as: Movie.self).failure)
        guard case .unacceptableStatusCode(let code, let response) = error else {
            Issue.record("expected .unacceptableStatusCode, got \(error)")
            return
        }
        #expect(code == status)
        #expect(error.statusCode == status)
        #expect(response.statusCode == status)
        #expect(response.body == Data(body.utf8))
        #expect(response.headers["x-trace"] == "t1")
        #expect(error.description.contains("\(status)"))
        #expect(error.description.hasSuffix(#": {"status_message":"nope"}"#))
    }

    @Test("Acceptable status codes are the client's to choose")
    func customAcceptableCodes() async throws {
        let stubbed = StubbedClient(acceptableStatusCodes: [200, 404])
        stubbed.stubs.register(.get, "/items", .json(#"{"id":0,"title":"missing"}"#, statusCode: 404))
        stubbed.stubs.register(.get, "/other", .json("{}", statusCode: 201))
        #expect(try await stubbed.client.fetch(TestEndpoint(), as: Movie.self).get().title == "missing")
        #expect(await stubbed.client.fetch(TestEndpoint(path: "/other"), as: Empty.self).failure?.statusCode == 201)
    }

    @Test(
        "Transport errors map to APIError",
        arguments: [
            (URLError(.timedOut), APIError.timedOut),
            (URLError(.cancelled), .cancelled),
            (URLError(.cannotConnectToHost), .requestFailed(URLError(.cannotConnectToHost))),
            (URLError(.notConnectedToInternet), .requestFailed(URLError(.notConnectedToInternet))),
        ])
    func transportErrors(urlError: URLError, expected: APIError) async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .failure(urlError))
        let error = try #require(await stubbed.client.fetch(TestEndpoint(), as: Empty.self).failure)
        #expect(error == expected)
    }

    @Test("An error that is not a URLError becomes .requestFailed carrying its description")
    func foreignError() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .failure(CustomError()))
        let error = try #require(await stubbed.client.fetch(TestEndpoint(), as: Empty.self).failure)
        guard case .requestFailed(let urlError) = error else {
            Issue.record("expected .requestFailed, got \(error)")
            return
        }
        #expect(urlError.code == .unknown)
        #expect(error.description.contains("the disk is on fire"))
    }

    @Test("A build failure is returned without sending anything")
    func buildFailureSendsNothing() async {
        let stubbed = StubbedClient()
        let result = await stubbed.client.fetch(TestEndpoint(base: "not a url"), as: Empty.self)
        #expect(result.failure == .invalidURL("not a url"))
        #expect(stubbed.stubs.requests.isEmpty)
    }

    @Test("send throws the same errors fetch returns")
    func sendThrows() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", .text("boom", statusCode: 500))
        let fetched = try #require(await stubbed.client.fetch(TestEndpoint(), as: Empty.self).failure)
        #expect(fetched.statusCode == 500)
        await #expect(throws: fetched) {
            try await stubbed.client.send(TestEndpoint(), as: Empty.self)
        }
        stubbed.stubs.register(.get, "/ok", .json(#"{"id":3,"title":"C"}"#))
        let movie: Movie = try await stubbed.client.send(TestEndpoint(path: "/ok"))
        #expect(movie.id == 3)
    }

    @Test("fetch(with:) sends a hand-built request through the same validation and decoding")
    func handBuiltRequest() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(HTTPMethod(rawValue: "PURGE"), "/cache", .json(#"{"id":9,"title":"I"}"#))
        stubbed.stubs.register(.get, "/gone", .status(410))
        var request = URLRequest(url: try #require(URL(string: "https://h.test/cache")))
        request.httpMethod = "PURGE"
        #expect(try await stubbed.client.fetch(with: request, as: Movie.self).get() == Movie(id: 9, title: "I"))
        let gone = URLRequest(url: try #require(URL(string: "https://h.test/gone")))
        #expect(await stubbed.client.fetch(with: gone, as: Empty.self).failure?.statusCode == 410)
    }

    @Test("response(for:) returns status, headers and body undecoded, and still validates the status")
    func rawResponse() async throws {
        let stubbed = StubbedClient()
        stubbed.stubs.register(.get, "/items", StubResponse(statusCode: 202, headers: ["ETag": "\"v1\""], body: Data("raw".utf8)))
        stubbed.stubs.register(.get, "/missing", .text("no such thing", statusCode: 404))
        let response = try await stubbed.client.response(for: TestEndpoint())
        #expect(response.statusCode == 202)
        #expect(response.headers["etag"] == "\"v1\"")
        #expect(response.text == "raw")
        #expect(response.url?.path == "/items")
        await #expect {
            try await stubbed.client.response(for: TestEndpoint(path: "/missing"))
        } throws: { error in
            (error as? APIError)?.response?.text == "no such thing" && (error as? APIError)?.statusCode == 404
        }
        let request = URLRequest(url: try #require(URL(string: "https://h.test/items")))
        #expect(try await stubbed.client.response(with: request).statusCode == 202)
    }

    @Test("A hand-built GET or HEAD with a body is refused before it is sent", arguments: ["GET", "HEAD"])
    func handBuiltBodyOnGet(method: String) async throws {
        let stubbed = StubbedClient()
        var request = URLRequest(url: try #require(URL(string: "https://h.test/items")))
        request.httpMethod = method
        request.httpBody = Data("x".utf8)
        let error = await stubbed.client.fetch(with: request, as: Empty.self).failure
        #expect(
            error
                == .invalidRequest(
                    "a \(method) request cannot carry a body; send the values as urlParameters or use another method"))
        #expect(stubbed.stubs.requests.isEmpty)
    }

    @Test("A response that is not HTTP is .invalidResponse")
    func nonHTTPResponse() async throws {
        let request = URLRequest(url: try #require(URL(string: "data:text/plain,hello")))
        #expect(await NetworkClient().fetch(with: request, as: String.self).failure == .invalidResponse)
    }

    @Test("Over real sockets, a refused connection is .requestFailed(.cannotConnectToHost)", arguments: TransportKind.all)
    func connectionRefused(transport: TransportKind) async throws {
        let server = try SilentServer()
        let base = server.baseURL
        server.stop()
        let error = try #require(await transport.makeClient().fetch(TestEndpoint(base: base), as: Empty.self).failure)
        guard case .requestFailed(let urlError) = error else {
            Issue.record("expected .requestFailed, got \(error)")
            return
        }
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error.description.hasPrefix("Request failed: could not connect to the server"))
        #expect(error.description.contains("[URLError -1004]"))
    }

    @Test(
        "Over real sockets, a server that does not speak TLS fails an https request with .requestFailed(.secureConnectionFailed)",
        arguments: TransportKind.all)
    func notTLS(transport: TransportKind) async throws {
        let server = try SilentServer(greeting: Data("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { server.stop() }
        let endpoint = TestEndpoint(base: "https://127.0.0.1:\(server.port)", timeout: 10)
        let error = try #require(await transport.makeClient().fetch(endpoint, as: Empty.self).failure)
        guard case .requestFailed(let urlError) = error else {
            Issue.record("expected .requestFailed, got \(error)")
            return
        }
        #expect(urlError.code == .secureConnectionFailed, "\(error)")
        #expect(error.description.contains("the TLS handshake failed"), "\(error)")
    }
}
