import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A page of a paginated list: its items, and the cursor of the next page when the API uses cursors.
struct NotePage: Decodable, Sendable, Equatable {
    let items: [Int]
    let next: String?
}

@Suite("Pagination: pages as an AsyncSequence")
struct PaginationTests {
    /// A server of three pages of two items each: `/notes?page=N` with a relative `Link` to the next
    /// and the last, and `/feed?cursor=C` with the next cursor in the body.
    private static func server(paths: Locked<[String]>) throws -> ScriptedServer {
        try ScriptedServer { connection in
            let target = connection.requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            paths.withLock { $0.append(target) }
            let components = URLComponents(string: target)
            let query = Dictionary(
                (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            let number = Int(query["page"] ?? query["cursor"].map { String($0.dropFirst()) } ?? "1") ?? 1
            var headers = ["Content-Type": "application/json"]
            var next = "null"
            if number < 3 {
                headers["Link"] = #"</notes?page=\#(number + 1)>; rel="next", </notes?page=3>; rel="last""#
                next = "\"c\(number + 1)\""
            }
            let body = Data(#"{"items":[\#(number * 10),\#(number * 10 + 1)],"next":\#(next)}"#.utf8)
            headers["Content-Length"] = String(body.count)
            connection.writeHead(headers: headers)
            connection.write(body)
        }
    }

    @Test("Following the Link header's next walks every page, relative links resolved", arguments: TransportKind.all)
    func linkHeader(transport: TransportKind) async throws {
        let paths = Locked<[String]>([])
        let server = try Self.server(paths: paths)
        defer { server.stop() }
        let first = Request<NotePage>(base: server.baseURL, path: "/notes", options: CallOptions(timeout: 10))
        let pages = transport.makeClient().pages(startingWith: first)
        var items: [Int] = []
        for try await page in pages { items += page.items }
        #expect(items == [10, 11, 20, 21, 30, 31])
        #expect(paths.withLock { $0 } == ["/notes", "/notes?page=2", "/notes?page=3"])
    }

    @Test("A cursor in the body walks every page through the endpoint", arguments: TransportKind.all)
    func cursorInBody(transport: TransportKind) async throws {
        let paths = Locked<[String]>([])
        let server = try Self.server(paths: paths)
        defer { server.stop() }
        let base = server.baseURL
        @Sendable func feed(_ cursor: String?) -> Request<NotePage> {
            Request(
                base: base, path: "/feed", task: .requestParameters(urlParameters: cursor.map { ["cursor": $0] }),
                options: CallOptions(timeout: 10))
        }
        var pages: [NotePage] = []
        for try await page in transport.makeClient().pages(startingWith: feed(nil), next: { $0.value.next.map(feed) }) {
            pages.append(page)
        }
        #expect(pages.map(\.items) == [[10, 11], [20, 21], [30, 31]])
        #expect(paths.withLock { $0 } == ["/feed", "/feed?cursor=c2", "/feed?cursor=c3"])
    }

    @Test("Two Link fields in one response are both read", arguments: TransportKind.all)
    func twoLinkFields(transport: TransportKind) async throws {
        let server = try ScriptedServer { connection in
            // The second field rides in the first one's value: the script's headers are a dictionary.
            connection.writeHead(headers: ["Link": "</notes?page=2>; rel=next\r\nLink: </notes?page=9>; rel=last", "Content-Length": "0"])
        }
        defer { server.stop() }
        let response = try await transport.makeClient().response(for: TestEndpoint(base: server.baseURL, path: "/notes", timeout: 10))
        #expect(response.link("next")?.absoluteString == "\(server.baseURL)/notes?page=2")
        #expect(response.link("last")?.absoluteString == "\(server.baseURL)/notes?page=9")
    }

    /// Stubs whose every page links back to itself, as a server in a loop would.
    private static func loopingStubs() -> StubTransport {
        let stubs = StubTransport()
        stubs.register(.get, "/notes") { request in
            let page = request.url.query.flatMap { Int($0.dropFirst("page=".count)) } ?? 1
            return StubResponse(
                headers: ["Link": "<https://api.example.com/notes?page=\(page + 1)>; rel=next"],
                body: Data(#"{"items":[1],"next":null}"#.utf8))
        }
        return stubs
    }

    @Test("A link back to a page already fetched ends the pages")
    func circle() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/notes") { request in
            let back = request.url.query == nil ? "/notes?page=2" : "/notes"
            return StubResponse(headers: ["Link": "<\(back)>; rel=next"], body: Data(#"{"items":[1],"next":null}"#.utf8))
        }
        var count = 0
        for try await _ in NetworkClient(transport: stubs).pages(startingWith: Self.notes) { count += 1 }
        #expect(count == 2)
        #expect(stubs.requests.count == 3, "the third request came back to the first page, which ends the pages")
    }

    @Test("A link to another origin is followed without the client's credentials")
    func otherOrigin() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/notes") { _ in
            StubResponse(
                headers: ["Link": "<https://elsewhere.example.net/more>; rel=next"], body: Data(#"{"items":[1],"next":null}"#.utf8))
        }
        stubs.register(.get, "/more") { _ in StubResponse(body: Data(#"{"items":[2],"next":null}"#.utf8)) }
        let client = NetworkClient(
            transport: stubs, configuration: ClientConfiguration(interceptors: [BearerTokenAuthenticator(token: "secret")]))
        var items: [Int] = []
        for try await page in client.pages(startingWith: Self.notes) { items += page.items }
        #expect(items == [1, 2])
        #expect(stubs.requests.map { $0.headers["Authorization"] } == ["Bearer secret", nil])
    }

    private static let notes = Request<NotePage>(base: "https://api.example.com", path: "/notes")

    @Test("maximumPages ends the pages, and nothing is sent before iterating")
    func pageLimit() async throws {
        let stubs = Self.loopingStubs()
        let pages = NetworkClient(transport: stubs).pages(startingWith: Self.notes, maximumPages: 4) {
            $0.response.link("next").map { URLRequest(url: $0) }
        }
        #expect(stubs.requests.isEmpty)
        var count = 0
        for try await _ in pages { count += 1 }
        #expect(count == 4)
        #expect(stubs.requests.count == 4)
    }

    @Test("A failed page ends the pages with its error; a cancelled task gets cancelled without sending")
    func failureAndCancellation() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/notes", StubResponse(headers: ["Link": "</gone>; rel=next"], body: Data(#"{"items":[1],"next":null}"#.utf8)))
        stubs.register(.get, "/gone", .status(410))
        let client = NetworkClient(transport: stubs)
        var iterator = client.pages(startingWith: Self.notes).makeAsyncIterator()
        #expect(try await iterator.next()?.items == [1])
        let error = await #expect(throws: APIError.self) { try await iterator.next() }
        #expect(error?.statusCode == 410)
        #expect(try await iterator.next() == nil, "nothing after an error")

        let looping = Self.loopingStubs()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for try await _ in NetworkClient(transport: looping).pages(startingWith: Self.notes, next: { _ in Self.notes }) { count += 1 }
            return count
        }
        await #expect(throws: APIError.cancelled) { try await task.value }
        #expect(looping.requests.isEmpty)
    }
}
