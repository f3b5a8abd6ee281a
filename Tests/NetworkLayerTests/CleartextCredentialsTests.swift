import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

/// Credentials never travel in clear text: a request carrying them over plain `http` fails before it
/// is sent, unless its host is a loopback one or the policy lists it.
@Suite("Credentials over plain http")
struct CleartextCredentialsTests {
    /// A client over a stub transport that answers `/items` with 200 and redirects `/away` to `location`.
    private static func client(
        policy: RedirectPolicy = .default,
        interceptors: [any Interceptor] = [],
        location: String = "http://cdn.example.test/items"
    ) -> (NetworkClient, StubTransport) {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .text("ok"))
        stubs.register(.get, "/away", StubResponse(statusCode: 302, headers: ["Location": location]))
        return (
            NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: interceptors, redirectPolicy: policy)), stubs
        )
    }

    @Test(
        "Each credential header to an http host fails before anything is sent",
        arguments: ["Authorization", "proxy-authorization", "Cookie", "X-API-Key"])
    func refused(header: String) async {
        let (client, stubs) = Self.client(policy: RedirectPolicy(sensitiveHeaders: ["x-api-key"]))
        let endpoint = TestEndpoint(base: "http://api.example.test", headers: [header: "secret"])
        let error = await #expect(throws: APIError.self) { try await client.send(endpoint, as: String.self) }
        guard case .cleartextCredentials(let host, let headers)? = error else {
            Issue.record("expected cleartextCredentials, got \(String(describing: error))")
            return
        }
        #expect(host == "api.example.test")
        #expect(headers.map { $0.lowercased() } == [header.lowercased()])
        #expect(stubs.requests.isEmpty)
    }

    @Test("The same request goes over https, and over http without credentials")
    func httpsAndNoCredentials() async throws {
        let (client, stubs) = Self.client()
        let secure = TestEndpoint(base: "https://api.example.test", headers: ["Authorization": "Bearer t"])
        #expect(try await client.send(secure, as: String.self) == "ok")
        #expect(try await client.send(TestEndpoint(base: "http://api.example.test"), as: String.self) == "ok")
        #expect(stubs.requests.map(\.url.scheme) == ["https", "http"])
    }

    @Test(
        "Loopback hosts take credentials over http; a look-alike does not",
        arguments: [
            ("http://127.0.0.1:8080", true), ("http://127.9.8.7", true), ("http://localhost:3000", true),
            ("http://api.localhost", true), ("http://[::1]:8080", true), ("http://127.0.0.1.example.test", false),
            ("http://localhost.example.test", false), ("http://128.0.0.1", false),
        ])
    func loopback(base: String, allowed: Bool) async throws {
        let (client, stubs) = Self.client()
        let endpoint = TestEndpoint(base: base, headers: ["Authorization": "Bearer t"])
        if allowed {
            #expect(try await client.send(endpoint, as: String.self) == "ok")
        } else {
            await #expect(throws: APIError.self) { try await client.send(endpoint, as: String.self) }
        }
        #expect(stubs.requests.count == (allowed ? 1 : 0))
    }

    @Test("A host listed in cleartextCredentialHosts takes them, whatever its case; others still do not")
    func listedHost() async throws {
        let (client, stubs) = Self.client(policy: RedirectPolicy(cleartextCredentialHosts: ["Dev.Example.Test"]))
        let listed = TestEndpoint(base: "http://dev.example.test:8080", headers: ["Authorization": "Bearer t"])
        #expect(try await client.send(listed, as: String.self) == "ok")
        #expect(stubs.requests.first?.headers["Authorization"] == "Bearer t")
        let other = TestEndpoint(base: "http://api.example.test", headers: ["Authorization": "Bearer t"])
        await #expect(throws: APIError.cleartextCredentials(host: "api.example.test", headers: ["Authorization"])) {
            try await client.send(other, as: String.self)
        }
        #expect(stubs.requests.count == 1)
    }

    @Test("A credential an interceptor adds is checked too, as the request goes out")
    func addedByInterceptor() async {
        let (client, stubs) = Self.client(interceptors: [HeaderAdapter(header: "Authorization", value: "Bearer t")])
        await #expect(throws: APIError.cleartextCredentials(host: "api.example.test", headers: ["Authorization"])) {
            try await client.send(TestEndpoint(base: "http://api.example.test"), as: String.self)
        }
        #expect(stubs.requests.isEmpty)
    }

    @Test("A redirect from loopback to an http host goes without credentials; one that puts them back fails at that hop")
    func redirects() async throws {
        let (client, stubs) = Self.client()
        let away = TestEndpoint(base: "http://127.0.0.1:8080", path: "/away", headers: ["Authorization": "Bearer t"])
        #expect(try await client.send(away, as: String.self) == "ok")
        #expect(stubs.requests.map(\.url.host) == ["127.0.0.1", "cdn.example.test"])
        #expect(stubs.requests.last?.headers["Authorization"] == nil)

        let trusting = RedirectPolicy(onRedirect: { _, next in
            var next = next
            next.setValue("Bearer t", forHTTPHeaderField: "Authorization")
            return next
        })
        let (trustingClient, trustingStubs) = Self.client(policy: trusting)
        await #expect(throws: APIError.cleartextCredentials(host: "cdn.example.test", headers: ["Authorization"])) {
            try await trustingClient.send(away, as: String.self)
        }
        #expect(trustingStubs.requests.map(\.url.host) == ["127.0.0.1"])
    }

    @Test("The error says what was refused, where, and how to allow it")
    func description() {
        let error = APIError.cleartextCredentials(host: "api.example.test", headers: ["Authorization", "Cookie"])
        #expect(error.description.contains("Authorization, Cookie to api.example.test over plain http"))
        #expect(error.description.contains("RedirectPolicy.cleartextCredentialHosts"))
    }
}
