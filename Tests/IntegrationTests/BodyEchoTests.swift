import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Bodies, headers and methods over real HTTP", .httpbin)
struct BodyEchoTests {

    struct Rating: Encodable {
        let value: Double
        let comment: String
    }

    @Test("A JSON body from a dictionary arrives with its Content-Type, once", arguments: TransportKind.all)
    func jsonDictionary(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint(
            "/post",
            method: .post,
            task: .requestParameters(bodyParameters: ["title": "Heat", "year": 1995, "tags": ["crime", "é"]])
        )
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.json == ["title": "Heat", "year": .number(1995), "tags": ["crime", "é"]])
        #expect(echo.header("Content-Type") == "application/json")
    }

    @Test("A JSON body from an Encodable arrives intact, with URL parameters beside it", arguments: TransportKind.all)
    func jsonEncodable(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint(
            "/put",
            method: .put,
            task: .requestJSONBody(Rating(value: 8.5, comment: "a \"quoted\" line\n"), urlParameters: ["session": "x y"])
        )
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.json == ["value": .number(8.5), "comment": "a \"quoted\" line\n"])
        #expect(echo.args == ["session": "x y"])
    }

    @Test("A form body arrives as form fields", arguments: TransportKind.all)
    func formBody(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint(
            "/post",
            method: .post,
            task: .requestParameters(bodyParameters: ["name": "a b+c&d=é", "ids": [1, 2]], bodyEncoding: .formURLEncoded)
        )
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.form == ["name": "a b+c&d=é", "ids[]": ["1", "2"]])
        #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test("Raw data arrives byte for byte with its Content-Type", arguments: TransportKind.all)
    func rawData(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let text = "line one\nline two é"
        let endpoint = try HTTPBinEndpoint("/post", method: .post, task: .requestData(Data(text.utf8), contentType: "text/plain"))
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.data == text)
        #expect(echo.header("Content-Type") == "text/plain")
        #expect(echo.header("Content-Length") == "\(Data(text.utf8).count)")
    }

    @Test("Custom headers arrive once each, and a task's header beats the endpoint's", arguments: TransportKind.all)
    func headersArriveOnce(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint(
            "/anything",
            headers: ["X-Trace": "abc", "X-Client": "endpoint", "Accept": "application/json"],
            task: .requestParametersAndHeaders(additionalHeaders: ["X-Client": "task"])
        )
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.header("X-Trace") == "abc")
        #expect(echo.header("X-Client") == "task")
        #expect(echo.header("Accept") == "application/json")
    }

    @Test("PATCH and DELETE carry their bodies", arguments: TransportKind.all, ["PATCH", "DELETE"])
    func customMethods(transport: TransportKind, method: String) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint(
            "/anything",
            method: HTTPMethod(rawValue: method),
            task: .requestParameters(bodyParameters: ["id": 7])
        )
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.method == method)
        #expect(echo.json == ["id": .number(7)])
    }

    @Test("An unknown method is sent as itself: httpbin answers PURGE with 405 and the methods it allows", arguments: TransportKind.all)
    func customMethod(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let result: Result<Echo, APIError> = await client.fetch(try HTTPBinEndpoint("/get", method: HTTPMethod(rawValue: "PURGE")))
        let error = try #require(result.failure)
        #expect(error.statusCode == 405)
        #expect(error.response?.headers["Allow"]?.contains("GET") == true)
    }

    @Test("HEAD returns the status and headers with an empty body", arguments: TransportKind.all)
    func head(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let response = try await client.response(for: try HTTPBinEndpoint("/get", method: .head))
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test("A GET with a body is refused before sending, not failed as 'resource exceeds maximum size'", arguments: TransportKind.all)
    func getWithBody(transport: TransportKind) async throws {
        let client = transport.makeClient()
        var request = URLRequest(url: try #require(URL(string: try HTTPBin.base() + "/get")))
        request.httpBody = Data("{}".utf8)
        let result: Result<Echo, APIError> = await client.fetch(with: request)
        guard case .invalidRequest(let reason)? = result.failure else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(reason.contains("GET request cannot carry a body"))
    }
}
