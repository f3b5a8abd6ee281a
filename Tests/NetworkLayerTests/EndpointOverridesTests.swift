import Foundation
import NetworkLayer
import NetworkLayerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint that may override the client's acceptable status codes and decoder.
private struct Lookup: Endpoint {
    var path = "/items"
    var acceptableStatusCodes: Set<Int>?
    var decoder: JSONDecoder?
    var base: String { "https://api.example.com" }
    var options: CallOptions { CallOptions(acceptableStatusCodes: acceptableStatusCodes, decoder: decoder) }
}

/// `{"total_results": 7}` in snake case.
private struct Totals: Decodable, Equatable, Sendable {
    let totalResults: Int
}

@Suite("Per-endpoint acceptable status codes and decoder, the client's by default")
struct EndpointOverridesTests {
    private static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    private func client(_ stubs: StubTransport) -> NetworkClient {
        NetworkClient(transport: stubs, configuration: ClientConfiguration(callbackQueue: DispatchQueue(label: "overrides")))
    }

    @Test("An endpoint's acceptable status codes replace the client's, both ways")
    func acceptableStatusCodes() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/missing", .json(#"{"total_results":0}"#, statusCode: 404))
        stubs.register(.get, "/items", .json(#"{"total_results":7}"#))
        let client = client(stubs)
        let missing = Lookup(path: "/missing", acceptableStatusCodes: [200, 404], decoder: Self.snakeCase)

        #expect(try await client.send(missing, as: Totals.self) == Totals(totalResults: 0))
        #expect(await client.fetch(Lookup(path: "/missing"), as: Empty.self).failure?.statusCode == 404)
        #expect(await client.fetch(Lookup(acceptableStatusCodes: [201]), as: Empty.self).failure?.statusCode == 200)
    }

    @Test("An endpoint's decoder replaces the client's; without one, the client's decodes")
    func decoder() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(#"{"total_results":7}"#))
        let client = client(stubs)

        #expect(try await client.send(Lookup(decoder: Self.snakeCase), as: Totals.self) == Totals(totalResults: 7))
        #expect(try await client.response(for: Lookup(decoder: Self.snakeCase), as: Totals.self).value == Totals(totalResults: 7))
        let error = await client.fetch(Lookup(), as: Totals.self).failure
        #expect(error?.description.contains("totalResults") == true, "the client's plain decoder looks for totalResults")
    }

    @Test("Completion handlers, uploads, streams and downloads use them too")
    func everyVerb() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(#"{"total_results":7}"#, statusCode: 404))
        stubs.register(.put, "/items", .json(#"{"total_results":8}"#, statusCode: 404))
        let client = client(stubs)
        let lookup = Lookup(acceptableStatusCodes: [404], decoder: Self.snakeCase)

        let completed = await withCheckedContinuation { continuation in
            client.fetch(lookup, as: Totals.self) { continuation.resume(returning: $0) }
        }
        #expect(try completed.get() == Totals(totalResults: 7))

        struct Upload: Endpoint {
            var base: String { "https://api.example.com" }
            var path: String { "/items" }
            var method: HTTPMethod { .put }
            var task: HTTPTask { .requestData(Data("x".utf8), contentType: "text/plain") }
            var options: CallOptions { CallOptions(acceptableStatusCodes: [404], decoder: EndpointOverridesTests.snakeCase) }
        }
        #expect(try await client.upload(for: Upload(), as: Totals.self) == Totals(totalResults: 8))

        var lines: [Totals] = []
        for try await totals in try await client.stream(for: lookup).lines(as: Totals.self) { lines.append(totals) }
        #expect(lines == [Totals(totalResults: 7)])

        let directory = try TemporaryDirectory()
        let file = try await client.download(for: lookup, to: directory.file("totals.json"))
        #expect(file.response.statusCode == 404)
    }

    @Test("A typed request keeps the endpoint's overrides")
    func typedRequest() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(#"{"total_results":7}"#, statusCode: 404))
        let request = Request<Totals>(Lookup(acceptableStatusCodes: [404], decoder: Self.snakeCase))

        #expect(request.options.acceptableStatusCodes == [404])
        #expect(try await client(stubs).send(request) == Totals(totalResults: 7))
    }
}
