import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if AsyncHTTPClient
    import AsyncHTTPClient
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback server that records every request it gets, headers included, and redirects
/// `/to/<status>/<percent-encoded location>`; anything else gets a 200 with the body `ok`.
private final class RedirectServer: Sendable {
    struct Received: Sendable {
        let method: String
        let path: String
        let headers: [String: String]
        let bodyLength: Int
    }

    private let server: ScriptedServer
    private let received = Locked<[Received]>([])

    init() throws {
        let received = received
        server = try ScriptedServer { connection in
            let parts = connection.requestLine.split(separator: " ").map(String.init)
            let method = parts.first ?? ""
            let path = parts.count > 1 ? parts[1] : ""
            received.withLock {
                $0.append(Received(method: method, path: path, headers: connection.headers, bodyLength: connection.bodyLength))
            }
            let hops = path.split(separator: "/", maxSplits: 2).map(String.init)
            if hops.count == 3, hops[0] == "to", let location = Self.location(hex: hops[2]) {
                connection.writeHead(status: Int(hops[1]) ?? 302, headers: ["Location": location, "Content-Length": "0"])
            } else {
                connection.writeHead(headers: ["Content-Length": "2"])
                if method != "HEAD" { connection.write(Data("ok".utf8)) }
            }
        }
    }

    deinit { server.stop() }

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { server.baseURL }
    /// `http://localhost:PORT`: the same server under another host name, so another origin.
    var otherNameURL: String { "http://localhost:\(server.port)" }
    /// Every request received so far.
    var requests: [Received] { received.withLock { $0 } }

    /// The path that redirects with `status` to `location`, written in hexadecimal so that it needs no escaping.
    static func redirect(_ status: Int, to location: String) -> String {
        "/to/\(status)/" + location.utf8.map { String(format: "%02x", $0) }.joined()
    }

    private static func location(hex: String) -> String? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        let bytes = stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
        return bytes.count * 2 == digits.count ? String(decoding: bytes, as: UTF8.self) : nil
    }
}

/// Sends `https` requests to a stub and the rest over a real transport: an `https` origin that
/// redirects to a real `http` server.
private struct SecureStubTransport: HTTPTransport {
    let secure: StubTransport
    let plain: any HTTPTransport

    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        request.urlRequest.url?.scheme == "https" ? try await secure.send(request) : try await plain.send(request)
    }
}

@Suite("Redirects: one policy on every transport, credentials kept within their origin")
struct RedirectPolicyTests {
    /// Every header the policy must keep within its origin, with a plain one that may travel.
    private static let headers: HTTPHeaders = [
        "Cookie": "session=SECRET", "Proxy-Authorization": "Basic U0VDUkVU", "X-API-Key": "SECRET", "X-Plain": "kept",
    ]
    private static let policy = RedirectPolicy(sensitiveHeaders: ["x-api-key"])
    private static let sensitive = ["authorization", "cookie", "proxy-authorization", "x-api-key"]

    private static func client(_ transport: TransportKind, policy: RedirectPolicy = policy) -> NetworkClient {
        NetworkClient(
            transport: transport.makeTransport(),
            configuration: ClientConfiguration(interceptors: [BearerTokenAuthenticator(token: "SECRET")], redirectPolicy: policy))
    }

    @Test(
        "A cross-origin redirect of a request without a body sends none of the credentials",
        arguments: TransportKind.all, [HTTPMethod.get, .head, .delete])
    func crossOriginWithoutBody(transport: TransportKind, method: HTTPMethod) async throws {
        try await Self.expectCredentialsKeptAtOrigin(by: Self.client(transport), headers: Self.headers, method: method)
    }

    /// A call with nothing to adapt, retry or observe takes a shorter path to the transport: the
    /// endpoint's own `Authorization` stays at its origin there too.
    @Test("A call without interceptors sends none of its endpoint's credentials across origins", arguments: TransportKind.all)
    func crossOriginWithoutInterceptors(transport: TransportKind) async throws {
        var headers = Self.headers
        headers["Authorization"] = "Bearer SECRET"
        let client = NetworkClient(transport: transport.makeTransport(), configuration: ClientConfiguration(redirectPolicy: Self.policy))
        try await Self.expectCredentialsKeptAtOrigin(by: client, headers: headers, method: .get)
    }

    /// Sends `headers` with `method` through `client` to an origin that redirects to another server,
    /// then to itself under another name, and expects the credentials only at the origin.
    private static func expectCredentialsKeptAtOrigin(by client: NetworkClient, headers: HTTPHeaders, method: HTTPMethod) async throws {
        let origin = try RedirectServer()
        let other = try RedirectServer()
        for target in [other.baseURL, origin.otherNameURL] {
            let endpoint = TestEndpoint(
                base: origin.baseURL, path: RedirectServer.redirect(302, to: target + "/landed"), method: method, headers: headers)
            let response = try await client.response(for: endpoint)
            #expect(response.statusCode == 200)
        }
        let landed = (other.requests + origin.requests).filter { $0.path == "/landed" }
        #expect(landed.count == 2)
        for request in landed {
            #expect(request.method == method.rawValue)
            #expect(Self.sensitive.allSatisfy { request.headers[$0] == nil }, "\(request.headers)")
            #expect(request.headers["x-plain"] == "kept")
        }
        let first = try #require(origin.requests.first)
        #expect(first.headers["authorization"] == "Bearer SECRET", "the origin itself got the credentials")
    }

    @Test("A cross-origin 307 sends the POST's body again, without the credentials", arguments: TransportKind.all)
    func crossOrigin307(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let other = try RedirectServer()
        let endpoint = TestEndpoint(
            base: origin.baseURL, path: RedirectServer.redirect(307, to: other.baseURL + "/landed"), method: .post,
            headers: Self.headers, task: .requestData(Data("payload".utf8), contentType: "text/plain"))
        _ = try await Self.client(transport).response(for: endpoint)
        let landed = try #require(other.requests.first)
        #expect(landed.method == "POST" && landed.bodyLength == 7)
        #expect(Self.sensitive.allSatisfy { landed.headers[$0] == nil }, "\(landed.headers)")
    }

    @Test("A same-origin redirect keeps every header", arguments: TransportKind.all)
    func sameOrigin(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let endpoint = TestEndpoint(base: origin.baseURL, path: RedirectServer.redirect(302, to: "/landed"), headers: Self.headers)
        _ = try await Self.client(transport).response(for: endpoint)
        let landed = try #require(origin.requests.last)
        #expect(landed.path == "/landed")
        #expect(Self.sensitive.allSatisfy { landed.headers[$0] != nil }, "\(landed.headers)")
    }

    @Test("A 303 turns a POST into a GET without its body or the headers that describe it", arguments: TransportKind.all)
    func seeOther(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let endpoint = TestEndpoint(
            base: origin.baseURL, path: RedirectServer.redirect(303, to: "/landed"), method: .post,
            task: .requestJSONBody(["name": "x"]))
        _ = try await transport.makeClient().response(for: endpoint)
        let landed = try #require(origin.requests.last)
        #expect(landed.method == "GET" && landed.path == "/landed" && landed.bodyLength == 0)
        #expect(landed.headers["content-type"] == nil, "\(landed.headers)")
    }

    @Test("Downloads and streams follow redirects by the same policy", arguments: TransportKind.all)
    func streamedVerbs(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let other = try RedirectServer()
        let endpoint = TestEndpoint(
            base: origin.baseURL, path: RedirectServer.redirect(301, to: other.baseURL + "/landed"), headers: Self.headers)
        let client = Self.client(transport)
        let directory = try TemporaryDirectory()
        let file = try await client.download(for: endpoint, to: directory.file("landed.txt"))
        #expect(try Data(contentsOf: file.fileURL) == Data("ok".utf8))
        var streamed = Data()
        for try await chunk in try await client.stream(for: endpoint) { streamed.append(chunk) }
        #expect(streamed == Data("ok".utf8))
        #expect(other.requests.count == 2)
        #expect(other.requests.allSatisfy { request in Self.sensitive.allSatisfy { request.headers[$0] == nil } })
    }

    @Test("A redirect from https to http fails by default, and nothing reaches the http server", arguments: TransportKind.all)
    func insecureRefused(transport: TransportKind) async throws {
        let plain = try RedirectServer()
        let secure = StubTransport()
        secure.register(.get, "/start", StubResponse(statusCode: 302, headers: ["Location": plain.baseURL + "/landed"]))
        let client = NetworkClient(
            transport: SecureStubTransport(secure: secure, plain: transport.makeTransport()),
            configuration: ClientConfiguration(interceptors: [BearerTokenAuthenticator(token: "SECRET")]))
        let endpoint = TestEndpoint(base: "https://api.example.com", path: "/start", headers: Self.headers)
        let error = await #expect(throws: APIError.self) { try await client.response(for: endpoint) }
        guard case .insecureRedirect(let from, let to) = error else {
            Issue.record("expected insecureRedirect, got \(String(describing: error))")
            return
        }
        #expect(from.absoluteString == "https://api.example.com/start" && to.absoluteString == plain.baseURL + "/landed")
        #expect(error?.description.contains("allowsInsecureRedirects") == true)
        #expect(plain.requests.isEmpty)
    }

    @Test("An allowed redirect from https to http still goes without credentials", arguments: TransportKind.all)
    func insecureAllowed(transport: TransportKind) async throws {
        let plain = try RedirectServer()
        let secure = StubTransport()
        secure.register(.get, "/start", StubResponse(statusCode: 302, headers: ["Location": plain.baseURL + "/landed"]))
        let client = NetworkClient(
            transport: SecureStubTransport(secure: secure, plain: transport.makeTransport()),
            configuration: ClientConfiguration(
                interceptors: [BearerTokenAuthenticator(token: "SECRET")],
                redirectPolicy: RedirectPolicy(allowsInsecureRedirects: true, sensitiveHeaders: ["X-API-Key"])))
        let endpoint = TestEndpoint(base: "https://api.example.com", path: "/start", headers: Self.headers)
        #expect(try await client.response(for: endpoint).statusCode == 200)
        let landed = try #require(plain.requests.first)
        #expect(Self.sensitive.allSatisfy { landed.headers[$0] == nil }, "\(landed.headers)")
        #expect(secure.requests.first?.headers["Authorization"] == "Bearer SECRET")
    }

    @Test("doNotFollow hands back the 3xx, on the client or for one endpoint", arguments: TransportKind.all)
    func doNotFollow(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let path = RedirectServer.redirect(302, to: "/landed")
        let client = NetworkClient(
            transport: transport.makeTransport(),
            configuration: ClientConfiguration(acceptableStatusCodes: [200, 302], redirectPolicy: .doNotFollow))
        let response = try await client.response(for: TestEndpoint(base: origin.baseURL, path: path))
        #expect(response.statusCode == 302)
        #expect(response.headers["Location"] == "/landed", "\(response.headers)")

        struct NoRedirects: Endpoint {
            let base: String
            let path: String
            var options: CallOptions { CallOptions(acceptableStatusCodes: [302], redirectPolicy: .doNotFollow) }
        }
        let overridden = try await transport.makeClient().response(for: NoRedirects(base: origin.baseURL, path: path))
        #expect(overridden.statusCode == 302)
        #expect(origin.requests.allSatisfy { $0.path != "/landed" })
    }

    @Test("Past maximumRedirects the call fails with httpTooManyRedirects", arguments: TransportKind.all)
    func tooMany(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let chain = RedirectServer.redirect(302, to: RedirectServer.redirect(302, to: RedirectServer.redirect(302, to: "/landed")))
        let client = NetworkClient(
            transport: transport.makeTransport(), configuration: ClientConfiguration(redirectPolicy: RedirectPolicy(maximumRedirects: 2)))
        let error = await #expect(throws: APIError.self) { try await client.response(for: TestEndpoint(base: origin.baseURL, path: chain)) }
        guard case .requestFailed(let urlError) = error else {
            Issue.record("expected requestFailed, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .httpTooManyRedirects)
        #expect(origin.requests.count == 3, "the third redirect was not followed")
    }

    @Test("onRedirect decides each redirect: it may stop one, or put a credential back on purpose", arguments: TransportKind.all)
    func onRedirect(transport: TransportKind) async throws {
        let origin = try RedirectServer()
        let other = try RedirectServer()
        let path = RedirectServer.redirect(307, to: other.baseURL + "/landed")
        let stop = NetworkClient(
            transport: transport.makeTransport(),
            configuration: ClientConfiguration(
                acceptableStatusCodes: [307],
                redirectPolicy: RedirectPolicy(onRedirect: { response, _ in
                    response.statusCode == 307 ? nil : URLRequest(url: URL(fileURLWithPath: "/"))
                })))
        #expect(try await stop.response(for: TestEndpoint(base: origin.baseURL, path: path)).statusCode == 307)
        #expect(other.requests.isEmpty)

        let trusted = RedirectPolicy(onRedirect: { _, next in
            var next = next
            next.setValue("Bearer TRUSTED", forHTTPHeaderField: "Authorization")
            return next
        })
        _ = try await NetworkClient(transport: transport.makeTransport(), configuration: ClientConfiguration(redirectPolicy: trusted))
            .response(for: TestEndpoint(base: origin.baseURL, path: path))
        #expect(other.requests.first?.headers["authorization"] == "Bearer TRUSTED")
    }

    #if AsyncHTTPClient
        @Test(
            "An HTTPClient that follows redirects itself fails the first one with a clear error, before its credentials travel",
            arguments: TransportKind.all.filter { $0 == .asyncHTTPClient })
        func ownClientFollowingRedirects(transport: TransportKind) async throws {
            let origin = try RedirectServer()
            let other = try RedirectServer()
            let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration())
            let client = NetworkClient(
                transport: .asyncHTTPClient(httpClient),
                configuration: ClientConfiguration(redirectPolicy: RedirectPolicy(sensitiveHeaders: ["X-API-Key"])))
            let endpoint = TestEndpoint(
                base: origin.baseURL, path: RedirectServer.redirect(302, to: other.baseURL + "/landed"), headers: Self.headers)
            let error = await #expect(throws: APIError.self) { try await client.response(for: endpoint) }
            try await httpClient.shutdown()
            #expect(error?.invalidRequestReason?.contains("redirectConfiguration: .disallow") == true, "\(String(describing: error))")
            #expect(other.requests.isEmpty, "\(other.requests.map(\.headers))")
        }
    #endif
}
