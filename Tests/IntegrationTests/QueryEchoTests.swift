import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Query parameters over real HTTP", .httpbin)
struct QueryEchoTests {
    let client = NetworkClient()

    @Test("Characters that need escaping arrive exactly as given")
    func trickyCharacters() async throws {
        let endpoint = try HTTPBinEndpoint("/get", task: .requestParameters(urlParameters: ["q": "a b+c&d=é/?#"]))
        let echo: Echo = try await client.send(endpoint)
        #expect(echo.args["q"] == "a b+c&d=é/?#")
    }
}
