import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small notes API's client, written as an application would write it from the README and the
/// articles: environments by base URL, a sign-in without authentication, a bearer token that has
/// expired and is refreshed through a client without the authenticator, pages followed by their
/// `Link` header, the API's JSON errors caught as the app's own type, and an attachment uploaded,
/// downloaded and announced on an event stream.
@Suite("A notes API's client, end to end")
struct NotesClientTests {
    struct Note: Codable, Equatable, Sendable { let id: Int; let title: String }
    struct NotePage: Decodable, Sendable { let notes: [Note] }
    struct Session: Decodable, Sendable { let token: String }
    struct Receipt: Decodable, Sendable { let id: String; let size: Int }
    /// The API's error body, `{"error": "…"}`, as the app's own error.
    struct NotesError: Error, Decodable, Equatable { let error: String }

    /// Where the app's requests go: the client's base URL, one per environment.
    enum Environment {
        case local(port: UInt16)
        case production

        var baseURL: URL? {
            switch self {
            case .local(let port): URL(string: "http://127.0.0.1:\(port)/api")
            case .production: URL(string: "https://notes.example.com/api")
            }
        }
    }

    /// The API, with no `base`: every path resolves against the client's base URL.
    enum NotesAPI: Endpoint {
        case signIn(user: String, password: String)
        case refresh
        case notes(page: Int)
        case note(id: Int)
        case create(title: String)
        case attach(noteID: Int, MultipartFormData)
        case attachment(id: String)
        case feed

        var path: String {
            switch self {
            case .signIn: "/session"
            case .refresh: "/session/refresh"
            case .notes: "/notes"
            case .note(let id): "/notes/\(id)"
            case .create: "/notes"
            case .attach(let id, _): "/notes/\(id)/attachments"
            case .attachment(let id): "/attachments/\(id)"
            case .feed: "/feed"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .signIn, .refresh, .create, .attach: .post
            default: .get
            }
        }
        var task: HTTPTask {
            switch self {
            case .signIn(let user, let password): .requestJSONBody(["user": user, "password": password])
            case .notes(let page): .requestParameters(urlParameters: ["page": page])
            case .create(let title): .requestJSONBody(["title": title])
            case .attach(_, let form): .uploadMultipart(form)
            default: .request
            }
        }
        var headers: HTTPHeaders { if case .feed = self { ["Accept": "text/event-stream"] } else { HTTPHeaders() } }
        /// Signing in and refreshing carry no token of their own.
        var options: CallOptions {
            switch self {
            case .signIn, .refresh: CallOptions(requiresAuthentication: false)
            default: CallOptions()
            }
        }
    }

    /// Turns the API's JSON error bodies into ``NotesError``.
    @Sendable static func decodeNotesError(_ response: HTTPResponse) throws {
        guard response.statusCode >= 400, let error = try? JSONDecoder().decode(NotesError.self, from: response.body) else { return }
        throw error
    }

    @Test("Sign in, refresh, pages, the app's errors, upload, download and events", arguments: TransportKind.all)
    func notesApp(transport: TransportKind) async throws {
        let server = try NotesServer()
        defer { server.stop() }
        let environment = Environment.local(port: server.port)
        #expect(Environment.production.baseURL?.host == "notes.example.com")

        // The refresh goes through a client without the authenticator.
        let plain = NetworkClient(
            transport: transport.makeTransport(), configuration: ClientConfiguration(baseURL: environment.baseURL, timeout: 10))
        let refreshes = Locked(0)
        let auth = RefreshingAuthenticator(token: nil) { _ in
            refreshes.withLock { $0 += 1 }
            return try await plain.send(NotesAPI.refresh, as: Session.self).token
        }
        let client = NetworkClient(
            transport: transport.makeTransport(),
            configuration: ClientConfiguration(baseURL: environment.baseURL, interceptors: [auth], timeout: 10)
        )
        .withValidation(Self.decodeNotesError)

        // Signing in sends no token and refreshes nothing, though there is none yet.
        let session = try await client.send(NotesAPI.signIn(user: "ada", password: "secret"), as: Session.self)
        #expect(session.token == "expired")
        #expect(refreshes.withLock { $0 } == 0)
        auth.setCredential(session.token)

        // The expired token gets a 401, refreshed once; then every page, by its Link header.
        var titles: [String] = []
        for try await page in client.pages(startingWith: Request<NotePage>(NotesAPI.notes(page: 1))) {
            titles += page.notes.map(\.title)
        }
        #expect(titles == ["groceries", "ideas", "travel"])
        #expect(refreshes.withLock { $0 } == 1)

        // The API's error body is the app's own error.
        let missing = await client.fetch(NotesAPI.note(id: 999), as: Note.self)
        guard case .failure(.validationFailed(let notesError as NotesError, let response)) = missing else {
            Issue.record("expected the app's NotesError, got \(missing)")
            return
        }
        #expect(notesError == NotesError(error: "no note 999"))
        #expect(response.statusCode == 404)

        let created = try await client.send(NotesAPI.create(title: "reading"), as: Note.self)
        #expect(created == Note(id: 4, title: "reading"))

        // An attachment of 100 KB goes up as a form and comes back as a file.
        let attachment = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var form = MultipartFormData()
        form.append(attachment, name: "file", filename: "scan.bin", contentType: "application/octet-stream")
        let receipt = try await client.upload(for: NotesAPI.attach(noteID: created.id, form), as: Receipt.self)
        #expect(receipt.id == "a1")
        #expect(receipt.size > attachment.count, "the whole form reached the server")
        let directory = try TemporaryDirectory()
        let file = try await client.download(for: NotesAPI.attachment(id: receipt.id), to: directory.file("scan.bin"))
        #expect(try Data(contentsOf: file.fileURL) == NotesServer.attachment)

        // The feed announces both.
        var events: [String] = []
        for try await event in try await client.stream(for: NotesAPI.feed).events { events.append(event.data) }
        #expect(events == ["created 4", "attached a1"])

        // Every call but signing in and refreshing carried the token it had.
        let unauthenticated = server.requests.filter { $0.authorization == nil }.map(\.line)
        #expect(unauthenticated == ["POST /api/session HTTP/1.1", "POST /api/session/refresh HTTP/1.1"])
    }
}

/// The notes API on 127.0.0.1: `expired` is refused with 401, `fresh` accepted.
private final class NotesServer: Sendable {
    struct Seen: Sendable { let line: String; let authorization: String? }

    static let attachment = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    private let server: ScriptedServer
    private let seen = Locked<[Seen]>([])
    var port: UInt16 { server.port }
    var requests: [Seen] { seen.withLock { $0 } }

    init() throws {
        let seen = seen
        server = try ScriptedServer { connection in
            seen.withLock { $0.append(Seen(line: connection.requestLine, authorization: connection.headers["authorization"])) }
            let parts = connection.requestLine.split(separator: " ")
            let route = parts.count > 1 ? parts[0] + " " + parts[1] : ""
            let authorized = connection.headers["authorization"] == "Bearer fresh"
            func answer(_ status: Int, _ body: String, type: String = "application/json", headers: [String: String] = [:]) {
                var headers = headers
                headers["Content-Type"] = type
                headers["Content-Length"] = String(body.utf8.count)
                connection.writeHead(status: status, headers: headers)
                connection.write(Data(body.utf8))
            }
            switch route {
            case "POST /api/session": answer(200, #"{"token":"expired"}"#)
            case "POST /api/session/refresh": answer(200, #"{"token":"fresh"}"#)
            case _ where !authorized: answer(401, #"{"error":"token expired"}"#)
            case "GET /api/notes?page=1":
                answer(
                    200, #"{"notes":[{"id":1,"title":"groceries"},{"id":2,"title":"ideas"}]}"#,
                    headers: ["Link": #"</api/notes?page=2>; rel="next""#])
            case "GET /api/notes?page=2": answer(200, #"{"notes":[{"id":3,"title":"travel"}]}"#)
            case "GET /api/notes/999": answer(404, #"{"error":"no note 999"}"#)
            case "POST /api/notes": answer(201, #"{"id":4,"title":"reading"}"#)
            case "POST /api/notes/4/attachments": answer(201, #"{"id":"a1","size":\#(connection.bodyLength)}"#)
            case "GET /api/attachments/a1":
                connection.writeHead(
                    headers: ["Content-Type": "application/octet-stream", "Content-Length": String(Self.attachment.count)])
                connection.write(Self.attachment)
            case "GET /api/feed": answer(200, "data: created 4\n\ndata: attached a1\n\n", type: "text/event-stream")
            default: answer(404, #"{"error":"no route \#(route)"}"#)
            }
        }
    }

    func stop() { server.stop() }
}
