import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A sign-in server: `/login` sets a session cookie and a second one with an `Expires` date in two
/// `Set-Cookie` fields, `/redirect-login` does the same in a 302 to `/me`, and `/me` answers 200 only
/// with the session cookie, 401 otherwise. It records each request's `Cookie` field.
private final class SignInServer: Sendable {
    let cookies = LockedArray<String?>()
    let server: ScriptedServer

    init() throws {
        let cookies = self.cookies
        server = try ScriptedServer { connection in
            let path = connection.requestLine.split(separator: " ").dropFirst().first ?? ""
            let setCookies =
                "Set-Cookie: session=s3cr3t; Path=/; HttpOnly\r\n"
                + "Set-Cookie: theme=dark; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/\r\n"
            var head: String
            switch path {
            case "/login":
                head = "HTTP/1.1 204 No Content\r\n" + setCookies
            case "/redirect-login":
                head = "HTTP/1.1 302 Found\r\nLocation: /me\r\nContent-Length: 0\r\n" + setCookies
            default:
                cookies.append(connection.headers["cookie"])
                let signedIn = connection.headers["cookie"]?.contains("session=s3cr3t") == true
                head = signedIn ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" : "HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n"
            }
            connection.write(Data((head + "Connection: close\r\n\r\n").utf8))
            if path != "/login", path != "/redirect-login" { connection.write(Data("{}".utf8)) }
        }
    }

    func request(_ path: String) throws -> URLRequest {
        URLRequest(url: try #require(URL(string: server.baseURL + path)))
    }
}

@Suite("Cookie jar over every transport")
struct CookieJarTransportTests {
    @Test("A sign-in that sets a session cookie, then a call that needs it, works with a jar", arguments: TransportKind.all)
    func signIn(transport: TransportKind) async throws {
        let server = try SignInServer()
        defer { server.server.stop() }
        let jar = CookieJar()
        let client = transport.makeClient(interceptors: [jar])
        let login = try await client.response(with: server.request("/login"))
        // Both transports join the two fields with ", ", as they join every repeated field.
        #expect(
            login.headers["Set-Cookie"]
                == "session=s3cr3t; Path=/; HttpOnly, theme=dark; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/")
        // The jar takes both, the Expires date's comma notwithstanding.
        #expect(jar.cookies().map(\.name) == ["session", "theme"])
        #expect(jar.cookies().first { $0.name == "theme" }?.expires == Date(timeIntervalSince1970: 4_096_250_880))
        _ = try await client.response(with: server.request("/me"))
        // Sent once: the transport adds none of its own.
        #expect(server.cookies.elements == ["session=s3cr3t; theme=dark"])
    }

    @Test(
        "Without a jar no transport keeps cookies, so the call after a sign-in is unauthorised on every transport",
        arguments: TransportKind.all)
    func noJarNoCookies(transport: TransportKind) async throws {
        let server = try SignInServer()
        defer { server.server.stop() }
        let client = transport.makeClient()
        _ = try await client.response(with: server.request("/login"))
        await #expect(throws: APIError.self) { try await client.response(with: server.request("/me")) }
        #expect(server.cookies.elements == [nil])
    }

    @Test("Cookies a 302 sets are kept and sent to its target, with the jar alone", arguments: TransportKind.all)
    func redirectSetsCookies(transport: TransportKind) async throws {
        let server = try SignInServer()
        defer { server.server.stop() }
        let jar = CookieJar()
        let client = transport.makeClient(interceptors: [jar])
        let response = try await client.response(with: server.request("/redirect-login"))
        #expect(response.statusCode == 200)
        #expect(server.cookies.elements == ["session=s3cr3t; theme=dark"])
        #expect(jar.cookies().map(\.name) == ["session", "theme"])
    }

    @Test(
        "An endpoint's own redirect policy keeps the jar on every hop: the cookie a 303 sets reaches the target",
        arguments: TransportKind.all)
    func endpointPolicyKeepsTheJar(transport: TransportKind) async throws {
        struct SignIn: Endpoint {
            let base: String
            var path: String { "/redirect-login" }
            var options: CallOptions { CallOptions(redirectPolicy: RedirectPolicy(maximumRedirects: 3)) }
        }
        let server = try SignInServer()
        defer { server.server.stop() }
        let jar = CookieJar()
        let client = transport.makeClient(interceptors: [jar])
        let response = try await client.response(for: SignIn(base: server.server.baseURL))
        #expect(response.statusCode == 200)
        #expect(server.cookies.elements == ["session=s3cr3t; theme=dark"])
    }
}
