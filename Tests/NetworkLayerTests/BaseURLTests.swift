import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint that gives only its path, as an API described for several environments does.
private struct Notes: Endpoint {
    var path: String { "/notes" }
    var task: HTTPTask { .requestParameters(urlParameters: ["page": 2]) }
}

/// A client type of its own that names its server with its configuration's `baseURL`.
private struct NotesClient: APIClient {
    let transport: any HTTPTransport
    let configuration: ClientConfiguration

    init(transport: any HTTPTransport, baseURL: URL?) {
        self.transport = transport
        configuration = ClientConfiguration(baseURL: baseURL)
    }
}

/// A base URL from a literal the test knows is valid.
private func url(_ text: String) throws -> URL {
    try #require(URL(string: text))
}

@Suite("Base URL per client")
struct BaseURLTests {
    @Test("An endpoint that gives only its path resolves against the base URL")
    func emptyBase() throws {
        let request = try Notes().urlRequest(baseURL: url("https://api.example.com"))
        #expect(request.url?.absoluteString == "https://api.example.com/notes?page=2")
    }

    @Test("The base URL's path and query are kept; a relative base's path and query follow them")
    func pathAndQuery() throws {
        let baseURL = try url("https://api.example.com/root?key=a%20b")
        let request = try TestEndpoint(base: "/v2", path: "/items", task: .requestParameters(urlParameters: ["page": 1]))
            .urlRequest(baseURL: baseURL)
        #expect(request.url?.absoluteString == "https://api.example.com/root/v2/items?key=a%20b&page=1")
        let withQuery = try TestEndpoint(base: "/v2?lang=en", path: "items").urlRequest(baseURL: baseURL)
        #expect(withQuery.url?.absoluteString == "https://api.example.com/root/v2/items?key=a%20b&lang=en")
        let port = try TestEndpoint(base: "", path: "/items").urlRequest(baseURL: url("http://127.0.0.1:8080"))
        #expect(port.url?.absoluteString == "http://127.0.0.1:8080/items")
    }

    @Test(
        "Exactly one slash at each join, whatever slashes the base URL, the base and the path have around them",
        arguments: [
            ("https://h.test/api", "v2", "items"), ("https://h.test/api/", "/v2", "/items"),
            ("https://h.test/api//", "v2//", "items"), ("https://h.test/api", "/v2/", "//items"),
        ])
    func slashes(baseURL: String, base: String, path: String) throws {
        let request = try TestEndpoint(base: base, path: path).urlRequest(baseURL: url(baseURL))
        #expect(request.url?.absoluteString == "https://h.test/api/v2/items")
    }

    @Test("An empty base and an empty path leave the base URL as it is, trailing slash and query included")
    func nothingToAdd() throws {
        let request = try TestEndpoint(base: "", path: "").urlRequest(baseURL: url("https://h.test/api/?v=1"))
        #expect(request.url?.absoluteString == "https://h.test/api/?v=1")
    }

    @Test("The base URL's fragment ends the URL; a relative base's own fragment is dropped")
    func fragments() throws {
        let baseURL = try url("https://h.test/api?k=1#frag")
        let request = try TestEndpoint(base: "/v2?lang=en#mine", path: "items", task: .requestParameters(urlParameters: ["page": 2]))
            .urlRequest(baseURL: baseURL)
        #expect(request.url?.absoluteString == "https://h.test/api/v2/items?k=1&lang=en&page=2#frag")
    }

    @Test("An absolute base keeps its own server, whatever the client's base URL")
    func absoluteBaseWins() throws {
        let request = try TestEndpoint(base: "https://cdn.example.com/v1", path: "/items")
            .urlRequest(baseURL: url("https://api.example.com/root?key=k"))
        #expect(request.url?.absoluteString == "https://cdn.example.com/v1/items")
    }

    @Test(
        "A relative base without a base URL is .invalidURL saying to set ClientConfiguration.baseURL",
        arguments: ["", "/v2", "v2/items"])
    func relativeWithoutBaseURL(base: String) throws {
        let error = try #require(throws: APIError.self) { try TestEndpoint(base: base).urlRequest() }
        #expect(error == .invalidURL(base))
        #expect(error.description.contains("ClientConfiguration.baseURL"))
        #expect(error.description.contains("absolute base"))
    }

    @Test(
        "A malformed absolute base, or a host without a scheme, keeps the message about an absolute URL",
        arguments: ["ht tp://x", "//cdn.example.com/v1"])
    func malformedAbsolute(base: String) throws {
        let error = try #require(throws: APIError.self) {
            try TestEndpoint(base: base).urlRequest(baseURL: url("https://api.example.com"))
        }
        #expect(error == .invalidURL(base))
        #expect(!error.description.contains("baseURL"))
    }

    @Test(
        "A base URL or a relative base that cannot make a URL is .invalidURL, never a crash",
        arguments: [("relative/only", "/v2"), ("file:///tmp", "/v2"), ("mailto:someone@example.com", ""), ("https://h.test:99999", "")])
    func invalidCombinations(baseURL: String, base: String) throws {
        #expect(throws: APIError.self) {
            try TestEndpoint(base: base).urlRequest(baseURL: url(baseURL))
        }
    }

    @Test("A client without a base URL fails a relative endpoint before sending anything")
    func clientWithoutBaseURL() async throws {
        let stubs = StubTransport()
        let client = NetworkClient(transport: stubs)
        await #expect(throws: APIError.invalidURL("")) { try await client.send(Notes(), as: Empty.self) }
        #expect(stubs.requests.isEmpty)
    }

    @Test("An APIClient of your own resolves against its baseURL; the default is none")
    func ownClient() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/staging/notes", .json("[]"))
        let client = NotesClient(transport: stubs, baseURL: try url("https://h.test/staging"))
        _ = try await client.send(Notes(), as: [Int].self)
        #expect(stubs.requests.map(\.url.absoluteString) == ["https://h.test/staging/notes?page=2"])
        struct Plain: APIClient {
            let transport: any HTTPTransport
            let configuration = ClientConfiguration()
        }
        #expect(Plain(transport: stubs).configuration.baseURL == nil)
    }

    @Test("A Request described by its path alone goes to the client's base URL")
    func requestWithPathAlone() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/v1/movie/550", .json(#"{"id":550,"title":"Fight Club"}"#))
        let client = NetworkClient(transport: stubs, configuration: ClientConfiguration(baseURL: try url("https://h.test/v1")))
        let movie = try await client.send(Request<Movie>(path: "/movie/550"))
        #expect(movie == Movie(id: 550, title: "Fight Club"))
        #expect(stubs.requests.map(\.url.absoluteString) == ["https://h.test/v1/movie/550"])
    }

    @Test("Both NetworkClient initialisers take the base URL: in the configuration, or first beside the configuring closure")
    func everyInitialiser() throws {
        let baseURL = try url("https://h.test")
        #expect(NetworkClient(configuration: ClientConfiguration(baseURL: baseURL)).configuration.baseURL == baseURL)
        #expect(
            NetworkClient(transport: StubTransport(), configuration: ClientConfiguration(baseURL: baseURL)).configuration.baseURL == baseURL
        )
        let configured = NetworkClient(baseURL: baseURL, transport: StubTransport()) { $0.deadline = 5 }
        #expect(configured.configuration.baseURL == baseURL)
        #expect(configured.configuration.deadline == 5)
        #expect(NetworkClient().configuration.baseURL == nil)
    }

    @Test("Two clients send the same endpoint to two servers, each to its own base URL", arguments: TransportKind.all)
    func environments(transport: TransportKind) async throws {
        let paths = LockedArray<String>()
        let answer: @Sendable (ScriptedServer.Connection) -> Void = { connection in
            paths.append(connection.requestLine)
            connection.writeHead(headers: ["Content-Length": "2", "Content-Type": "application/json"])
            connection.write(Data("[]".utf8))
        }
        let staging = try ScriptedServer(script: answer)
        let local = try ScriptedServer(script: answer)
        defer {
            staging.stop()
            local.stop()
        }
        let stagingClient = NetworkClient(
            transport: transport.makeTransport(), configuration: ClientConfiguration(baseURL: try url(staging.baseURL + "/staging")))
        let localClient = NetworkClient(
            transport: transport.makeTransport(), configuration: ClientConfiguration(baseURL: try url(local.baseURL + "/local")))

        _ = try await stagingClient.send(Notes(), as: [Int].self)
        _ = try await localClient.send(Notes(), as: [Int].self)

        #expect(paths.elements == ["GET /staging/notes?page=2 HTTP/1.1", "GET /local/notes?page=2 HTTP/1.1"])
        #expect(staging.accepted == 1)
        #expect(local.accepted == 1)
    }
}
