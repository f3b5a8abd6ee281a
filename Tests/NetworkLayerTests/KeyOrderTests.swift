import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keys sorted by their UTF-8 bytes in the query, the form and the JSON body, at every level: the
/// order byte-wise canonicalisations (AWS SigV4, for one) expect. The expected order is Python's
/// `sorted(keys, key=lambda s: s.encode())`, and the texts are what Python's
/// `urllib.parse.urlencode(..., quote_via=quote, safe="")` and `json.dumps(..., ensure_ascii=False,
/// separators=(",", ":"))` write for the keys in that order.
@Suite("Key order by UTF-8 bytes")
struct KeyOrderTests {
    /// Keys in Python's byte order; each maps to its index there.
    static let keysInByteOrder = [
        "A\u{30A}", "B", "Z", "_", "a", "aa", "a\u{301}", "z", "~", "\u{C5}b", "\u{E9}", "\u{FF21}", "\u{1F600}",
    ]
    static var parameters: Parameters { Dictionary(uniqueKeysWithValues: keysInByteOrder.enumerated().map { ($0.element, $0.offset) }) }

    static let pythonQuery =
        "A%CC%8A=0&B=1&Z=2&_=3&a=4&aa=5&a%CC%81=6&z=7&~=8&%C3%85b=9&%C3%A9=10&%EF%BC%A1=11&%F0%9F%98%80=12"
    static let pythonJSON =
        "{\"A\u{30A}\":0,\"B\":1,\"Z\":2,\"_\":3,\"a\":4,\"aa\":5,\"a\u{301}\":6,\"z\":7,\"~\":8,"
        + "\"\u{C5}b\":9,\"\u{E9}\":10,\"\u{FF21}\":11,\"\u{1F600}\":12}"

    private func post() throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "https://h.test/form")))
        request.httpMethod = "POST"
        return request
    }

    @Test("The query sorts keys by bytes: A with a combining ring comes before a, not after it")
    func query() throws {
        let request = try URLParameterEncoder().encode(Self.parameters, into: post())
        #expect(request.url?.query == Self.pythonQuery)
    }

    @Test("The form body sorts keys by bytes")
    func form() throws {
        let request = try URLParameterEncoder().encode(asForm: Self.parameters, into: post())
        #expect(request.httpBody.map { String(decoding: $0, as: UTF8.self) } == Self.pythonQuery)
    }

    @Test("The JSON body sorts keys by bytes")
    func json() throws {
        let request = try JSONParameterEncoder().encode(Self.parameters, into: post())
        let body = try #require(request.httpBody)
        #expect(Array(body) == Array(Self.pythonJSON.utf8))
    }

    @Test("Nested dictionaries sort their keys by bytes too")
    func nested() throws {
        let request = try URLParameterEncoder().encode(["outer": ["a": 1, "A\u{30A}": 2]], into: post())
        #expect(request.url?.query == "outer%5BA%CC%8A%5D=2&outer%5Ba%5D=1")
    }
}
