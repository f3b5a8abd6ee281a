import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTPResponse")
struct HTTPResponseTests {
    private static func foundationResponse(_ headers: [String: String]) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(
                url: URL(string: "https://api.example.com/items")!, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    @Test("A Foundation response keeps status, URL and body, and its headers sorted by name with case-insensitive lookup")
    func fromFoundation() throws {
        let response = HTTPResponse(
            try Self.foundationResponse(["x-b": "2", "Content-Type": "application/json", "ETag": "v1", "age": "3"]), body: Data("{}".utf8))
        #expect(response.statusCode == 201)
        #expect(response.url?.absoluteString == "https://api.example.com/items")
        #expect(response.text == "{}")
        #expect(response.headers.map(\.name.localizedLowercase) == ["age", "content-type", "etag", "x-b"])
        #expect(response.headers["etag"] == "v1")
        #expect(response.headers["CONTENT-TYPE"] == "application/json")
        #expect(response.headers.count == 4)
    }

    @Test("Equality compares headers whether they were given or converted")
    func equality() throws {
        let converted = HTTPResponse(try Self.foundationResponse(["ETag": "v1"]), body: Data("x".utf8))
        let given = HTTPResponse(
            statusCode: 201, headers: HTTPHeaders(Array(converted.headers)), body: Data("x".utf8),
            url: URL(string: "https://api.example.com/items"))
        #expect(converted == given)
        #expect(converted != HTTPResponse(statusCode: 201, headers: ["ETag": "v2"], body: Data("x".utf8), url: given.url))
    }

    @Test("Hundreds of concurrent first reads of one response's headers all see the same headers")
    func concurrentFirstReads() async throws {
        let response = HTTPResponse(try Self.foundationResponse(["A": "1", "B": "2", "C": "3"]), body: Data())
        let seen = await withTaskGroup(of: HTTPHeaders.self, returning: [HTTPHeaders].self) { group in
            for _ in 0..<200 { group.addTask { response.headers } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.count == 200)
        #expect(seen.allSatisfy { $0 == seen[0] && $0["b"] == "2" })
    }
}
