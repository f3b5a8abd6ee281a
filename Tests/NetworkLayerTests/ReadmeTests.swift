import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's samples, compiled and run against stubs so they cannot rot. The reference samples
/// live in the DocC articles, and their tests under `Documentation/`.
enum Readme {
    struct Rating: Encodable { let value: Double }
    struct Movie: Decodable { let id: Int; let title: String }
    struct MoviePage: Decodable { let page: Int; let results: [Movie] }

    enum MovieAPI: Endpoint {
        case popular(page: Int)
        case rate(id: Int, value: Double)

        var base: String { "https://api.themoviedb.org/3" }
        var path: String {
            switch self {
            case .popular: "/movie/popular"
            case .rate(let id, _): "/movie/\(id)/rating"
            }
        }
        var method: HTTPMethod { if case .rate = self { .post } else { .get } }
        var task: HTTPTask {
            switch self {
            case .popular(let page): .requestParameters(urlParameters: ["page": page, "include_adult": false])
            case .rate(_, let value): .requestJSONBody(Rating(value: value))
            }
        }
    }

    /// The environments sample.
    enum NotesAPI: Endpoint { case list; var path: String { "/notes" } }
    struct Note: Decodable { let id: Int }

    enum FeedAPI: Endpoint {
        case updates
        var base: String { "https://api.example.com" }
        var path: String { "/feed" }
        var headers: HTTPHeaders { ["Accept": "text/event-stream"] }
    }

    /// The table's download and upload.
    enum FileAPI: Endpoint {
        case poster
        case upload(URL)
        var base: String { "https://api.example.com" }
        var path: String { if case .upload = self { "/uploads" } else { "/poster" } }
        var method: HTTPMethod { if case .upload = self { .post } else { .get } }
        var task: HTTPTask { if case .upload(let file) = self { .uploadFile(file) } else { .request } }
    }

    /// What the table's upload answers.
    struct Receipt: Decodable { let id: String }

    /// Stands in for the app's token service.
    struct TokenService: Sendable {
        let refreshes = Counter()
        func refresh() async throws -> String { "fresh-\(refreshes.increment())" }
    }
}

// The quick start's typed request; file-private, since the articles' tests declare one of their own.
extension Request where Value == Readme.MoviePage {
    fileprivate static func popular(page: Int) -> Self { Request(Readme.MovieAPI.popular(page: page)) }
}

/// A slow route, so that cancelling its handle always wins the race.
private struct TopRated: Endpoint {
    var base: String { "https://api.themoviedb.org/3" }
    var path: String { "/movie/top_rated" }
}

@Suite("README samples")
struct ReadmeTests {
    typealias MovieAPI = Readme.MovieAPI
    typealias MoviePage = Readme.MoviePage

    @Test("Quick start: fetch a page with as:, send a typed request, rate a movie")
    func quickStart() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}]}"#))
        stubs.register(.post, "/3/movie/550/rating", .json(#"{"status_code":1}"#, statusCode: 201))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))  // create one and keep it

        let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)  // Result<MoviePage, APIError>
        #expect(try result.get().results.map(\.title) == ["Fight Club"])
        let page = try await client.send(.popular(page: 1))  // a MoviePage; throws APIError
        #expect(page.results.map(\.title) == ["Fight Club"])
        _ = try await client.send(MovieAPI.rate(id: 550, value: 8.5), as: Empty.self)
        #expect(
            stubs.requests.map(\.url.absoluteString) == [
                "https://api.themoviedb.org/3/movie/popular?include_adult=false&page=1",
                "https://api.themoviedb.org/3/movie/popular?include_adult=false&page=1",
                "https://api.themoviedb.org/3/movie/550/rating",
            ])
        #expect(stubs.requests.last?.bodyText == #"{"value":8.5}"#)
    }

    @Test("Environments: an endpoint without a base goes to the client's base URL")
    func environments() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/api/notes", .json(#"[{"id":1}]"#))
        typealias NotesAPI = Readme.NotesAPI
        typealias Note = Readme.Note

        let staging = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(baseURL: URL(string: "https://staging.example.com/api")))
        let notes = try await staging.send(NotesAPI.list, as: [Note].self)  // GET https://staging.example.com/api/notes

        #expect(notes.map(\.id) == [1])
        #expect(stubs.requests.map(\.url.absoluteString) == ["https://staging.example.com/api/notes"])
    }

    #if AsyncHTTPClient
        @Test(
            "Safe by default: trust your own authority, pin keys and present a client certificate",
            arguments: TransportKind.all.filter { !$0.isURLSession })
        func tlsPolicy(transport: TransportKind) async throws {
            let servers = try await TLSPolicyServers.start()
            defer { servers.stop() }
            let caFile = servers.file("ca.pem")
            let certificateFile = servers.file("client.pem")
            let keyFile = servers.file("client.key")
            let serverKeyHash = try servers.opensslHash("server.pem")
            let backupKeyHash = try servers.opensslHash("ca.pem")

            let authority = try TLSPolicy.Certificates(contentsOf: caFile)  // PEM or DER
            let policy = TLSPolicy(
                trustRoots: .only(authority),  // or .systemAnd(authority)
                pins: [try TLSPolicy.PinSet(sha256: [serverKeyHash, backupKeyHash])],
                clientIdentity: try .pem(certificateChainFile: certificateFile, privateKeyFile: keyFile))
            let secured = NetworkClient(transport: try .asyncHTTPClient(tlsPolicy: policy))

            let endpoint = TestEndpoint(base: servers.baseURL(.mutual), path: "/", timeout: 20)
            #expect(try await secured.send(endpoint, as: String.self) == "ok")
            // The same policy with pins that match nothing is refused before anything is sent.
            let otherPins = TLSPolicy(
                trustRoots: .only(authority),
                pins: [try TLSPolicy.PinSet(sha256: [String(repeating: "A", count: 43) + "=", String(repeating: "B", count: 42) + "E="])],
                clientIdentity: policy.clientIdentity)
            let refused = NetworkClient(transport: try .asyncHTTPClient(tlsPolicy: otherPins))
            await #expect(throws: APIError.certificatePinMismatch(host: "127.0.0.1", seen: [serverKeyHash, backupKeyHash])) {
                try await refused.send(endpoint, as: String.self)
            }
        }
    #endif

    @Test("Which call for which task: every row of the table, as written")
    func callTable() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"page":1,"results":[]}"#))
        stubs.register(.get, "/feed", .chunked([Data("data: hello\n\n".utf8)]))
        stubs.register(.get, "/poster", .text("jpeg"))
        stubs.register(.post, "/uploads", .json(#"{"id":"r1"}"#, statusCode: 201))
        stubs.register(.get, "/3/movie/top_rated", .json("{}", delay: 60))
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(callbackQueue: DispatchQueue(label: "readme")))
        let directory = try TemporaryDirectory()
        let fileURL = directory.file("poster.jpg")
        try Data("upload".utf8).write(to: directory.file("upload.bin"))

        // Send and decode.
        let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
        let result = await client.fetch(MovieAPI.popular(page: 1), as: MoviePage.self)
        let typed = try await client.send(.popular(page: 1))
        // Send and get the response too; send raw.
        let decoded = try await client.response(for: MovieAPI.popular(page: 1), as: MoviePage.self)
        let raw = try await client.response(for: MovieAPI.popular(page: 1))
        // Stream, download, upload.
        var events: [String] = []
        for try await event in try await client.stream(for: Readme.FeedAPI.updates).events { events.append(event.data) }
        let downloaded = try await client.download(for: Readme.FileAPI.poster, to: fileURL, progress: { _ in })
        let resumable = try await client.download(resuming: nil, for: Readme.FileAPI.poster, to: directory.file("again.jpg"))
        let receipt = try await client.upload(
            for: Readme.FileAPI.upload(directory.file("upload.bin")), as: Readme.Receipt.self, progress: { _ in })
        // A URLRequest you built.
        let built = try await client.send(with: MovieAPI.popular(page: 1).urlRequest(), as: MoviePage.self)
        let builtResponse = try await client.response(with: MovieAPI.popular(page: 1).urlRequest(), as: MoviePage.self)
        let builtRaw = try await client.response(with: MovieAPI.popular(page: 1).urlRequest())
        // Walk pages (this API sends no Link header: one page).
        let first = Request<MoviePage>(MovieAPI.popular(page: 1))
        var pageCount = 0
        for try await _ in client.pages(startingWith: first) {
            pageCount += 1
        }
        // Without async: the completion runs once; cancelling completes it with .cancelled.
        let completed = LockedArray<Result<Empty, APIError>>()
        let handle = client.fetch(TopRated(), as: Empty.self) { result in completed.append(result) }
        handle.cancel()
        // Cache and cookies, de-duplication.
        let keeping = NetworkClient { $0.interceptors = [CookieJar(), HTTPCache(), Deduplicator()] }

        #expect([page.page, try result.get().page, typed.page, decoded.value.page, built.page] == [1, 1, 1, 1, 1])
        #expect(decoded.statusCode == 200)
        #expect(builtResponse.value.page == 1)
        #expect(builtRaw.statusCode == 200)
        #expect(pageCount == 1)
        #expect(raw.text == #"{"page":1,"results":[]}"#)
        #expect(events == ["hello"])
        #expect(try Data(contentsOf: downloaded.fileURL) == Data("jpeg".utf8))
        #expect(try Data(contentsOf: resumable.fileURL) == Data("jpeg".utf8))
        #expect(receipt.id == "r1")
        #expect(await eventually { completed.count == 1 })
        #expect(completed.elements.first?.failure == .cancelled)
        #expect(keeping.configuration.interceptors.count == 3)
    }

    @Test("Error handling with typed throws")
    func errorHandling() async {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular", .json(#"{"status_message":"Invalid API key"}"#, statusCode: 401))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
        var signInAgain = false
        do throws(APIError) {
            let page: MoviePage = try await client.send(MovieAPI.popular(page: 1))
            Issue.record("expected a failure, got \(page)")
        } catch .unacceptableStatusCode(401, _) {
            signInAgain = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(signInAgain)
    }

    @Test("Interceptors: a refreshing authenticator, a retry policy and a logger on one client")
    func interceptors() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/3/movie/popular") { request in
            request.headers["Authorization"] == "Bearer fresh-1" ? .json(#"{"page":1,"results":[]}"#) : .status(401)
        }
        let tokenService = Readme.TokenService()
        let storedToken: String? = "expired"
        let lines = LockedArray<String>()

        let auth = RefreshingAuthenticator(token: storedToken) { _ in try await tokenService.refresh() }
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(
                interceptors: [auth, RetryPolicy(), NetworkLogger(level: .info, sink: { lines.append($0) })],
                callbackQueue: DispatchQueue(label: "readme")))

        let page = try await client.send(MovieAPI.popular(page: 1), as: MoviePage.self)
        #expect(page.page == 1)
        #expect(tokenService.refreshes.count == 1)
        #expect(lines.count == 3, "two attempts and a summary")
    }

    @Test("Streaming: Server-Sent Events across chunk boundaries")
    func streaming() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/feed", .chunked([Data("data: he".utf8), Data("llo\n\nid: 2\ndata: world\n\n".utf8)]))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))

        var received: [String] = []
        for try await event in try await client.stream(for: Readme.FeedAPI.updates).events { received.append(event.data) }

        #expect(received == ["hello", "world"])
        #expect(stubs.requests(.get, "/feed").first?.headers["Accept"] == "text/event-stream")
    }
}
