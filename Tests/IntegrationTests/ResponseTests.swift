import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Responses over real HTTP: statuses, encodings, redirects", .httpbin)
struct ResponseTests {

    struct Compressed: Decodable {
        let gzipped: Bool?
        let deflated: Bool?
    }

    @Test("A 4xx fails with its status and its body", arguments: TransportKind.all)
    func clientError(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let result: Result<Echo, APIError> = await client.fetch(try HTTPBinEndpoint("/status/418"))
        let error = try #require(result.failure)
        #expect(error.statusCode == 418)
        #expect(error.response?.text?.contains("teapot") == true)
        #expect(error.description.contains("418"))
    }

    @Test("A 5xx fails with unacceptableStatusCode", arguments: TransportKind.all, [500, 502, 503])
    func serverError(transport: TransportKind, status: Int) async throws {
        let client = transport.makeClient()
        let result: Result<Echo, APIError> = await client.fetch(try HTTPBinEndpoint("/status/\(status)"))
        guard case .unacceptableStatusCode(let code, let response)? = result.failure else {
            Issue.record("expected unacceptableStatusCode, got \(result)")
            return
        }
        #expect(code == status)
        #expect(response.statusCode == status)
    }

    @Test("gzip and deflate bodies arrive decoded", arguments: TransportKind.all)
    func compressedBodies(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let gzip: Compressed = try await client.send(try HTTPBinEndpoint("/gzip"))
        let deflate: Compressed = try await client.send(try HTTPBinEndpoint("/deflate"))
        #expect(gzip.gzipped == true)
        #expect(deflate.deflated == true)
    }

    @Test("HTML where JSON was expected fails with decodingFailed and keeps the body", arguments: TransportKind.all)
    func htmlInsteadOfJSON(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let result: Result<Echo, APIError> = await client.fetch(try HTTPBinEndpoint("/html"))
        guard case .decodingFailed(_, let body, _)? = result.failure else {
            Issue.record("expected decodingFailed, got \(result)")
            return
        }
        #expect(String(decoding: body, as: UTF8.self).contains("<html>"))
    }

    @Test("Redirects are followed to the final response", arguments: TransportKind.all)
    func redirects(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let echo: Echo = try await client.send(try HTTPBinEndpoint("/redirect/3"))
        #expect(echo.url == "\(try HTTPBin.base())/get")
        let response = try await client.response(for: try HTTPBinEndpoint("/redirect/2"))
        #expect(response.url?.absoluteString == "\(try HTTPBin.base())/get", "the response's URL is the last one's")
    }

    @Test("A 303 after a POST turns into a GET, as HTTP says", arguments: TransportKind.all)
    func seeOther(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint(
            "/redirect-to",
            method: .post,
            task: .requestParameters(bodyParameters: ["a": 1], urlParameters: ["url": "/anything", "status_code": 303])
        )
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.method == "GET")
        #expect(echo.data?.isEmpty == true)
    }

    @Test("Basic auth with the right credentials succeeds", arguments: TransportKind.all)
    func basicAuth(transport: TransportKind) async throws {
        let client = transport.makeClient()
        struct Authenticated: Decodable {
            let authenticated: Bool
            let user: String
        }
        let endpoint = try HTTPBinEndpoint(
            "/basic-auth/user/passwd",
            headers: HTTPHeaders([.basicAuthorization(username: "user", password: "passwd")])
        )
        let result: Authenticated = try await client.send(endpoint)
        #expect(result.authenticated)
        #expect(result.user == "user")
    }

    @Test("Connection refused fails with requestFailed", arguments: TransportKind.all)
    func connectionRefused(transport: TransportKind) async throws {
        let client = transport.makeClient()
        var endpoint = try HTTPBinEndpoint("/get")
        endpoint.base = "http://127.0.0.1:1"  // nothing listens on port 1: refused at once
        let result = await client.fetch(endpoint, as: Echo.self)
        guard case .requestFailed(let error)? = result.failure else {
            Issue.record("expected requestFailed, got \(result)")
            return
        }
        #expect(error.code == .cannotConnectToHost)
    }
}
