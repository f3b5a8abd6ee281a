import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLs over real HTTP: httpbin echoes what arrived", .httpbin)
struct QueryEchoTests {

    @Test("Characters that need escaping arrive exactly as given", arguments: TransportKind.all)
    func trickyCharacters(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: ["q": "a b+c&d=é/?#", "empty": ""]))
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.args == ["q": "a b+c&d=é/?#", "empty": ""])
    }

    @Test("Arrays arrive as repeated bracketed keys, or bare keys when asked", arguments: TransportKind.all)
    func arrays(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let parameters: Parameters = ["ids": [1, 2, 3], "tags": ["a&b", "c d"]]
        let bracketed: Echo = try await client.send(try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: parameters)))
        #expect(bracketed.args == ["ids[]": ["1", "2", "3"], "tags[]": ["a&b", "c d"]])

        var bare = try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: parameters))
        bare.urlParameterEncoder = URLParameterEncoder(arrayEncoding: .noBrackets)
        let echo: Echo = try await client.send(bare)
        #expect(echo.args == ["ids": ["1", "2", "3"], "tags": ["a&b", "c d"]])
    }

    @Test("Nested dictionaries arrive as bracketed paths", arguments: TransportKind.all)
    func nestedDictionaries(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let parameters: Parameters = ["filter": ["year": 1999, "genre": ["name": "drama"]]]
        let echo: Echo = try await client.send(try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: parameters)))
        #expect(echo.args == ["filter[year]": "1999", "filter[genre][name]": "drama"])
    }

    @Test("Bools arrive as literals, or as 1 and 0 when asked", arguments: TransportKind.all)
    func bools(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let parameters: Parameters = ["adult": false, "video": true]
        let literal: Echo = try await client.send(try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: parameters)))
        #expect(literal.args == ["adult": "false", "video": "true"])

        var numeric = try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: parameters))
        numeric.urlParameterEncoder = URLParameterEncoder(boolEncoding: .numeric)
        let echo: Echo = try await client.send(numeric)
        #expect(echo.args == ["adult": "0", "video": "1"])
    }

    @Test("A path with spaces and non-ASCII segments is sent percent-encoded once and arrives as written", arguments: TransportKind.all)
    func pathSegments(transport: TransportKind) async throws {
        let client = transport.makeClient()
        let endpoint = try HTTPBinEndpoint("/anything/a b/é/北京")
        let base = try HTTPBin.base()
        let sent = try endpoint.urlRequest(encoder: JSONEncoder()).url?.absoluteString
        #expect(sent == "\(base)/anything/a%20b/%C3%A9/%E5%8C%97%E4%BA%AC")
        let echo: Echo = try await client.send(endpoint)
        // httpbin shows the URL decoded, keeping only the escapes a URL needs (the space).
        #expect(echo.url == "\(base)/anything/a%20b/é/北京")
    }
}
