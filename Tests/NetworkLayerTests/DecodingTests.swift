import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

@Suite("Decoding responses")
struct DecodingTests {
    private func fetch<T: Decodable>(_ response: StubResponse, as type: T.Type, method: HTTPMethod = .get) async -> Result<T, APIError> {
        let stubbed = StubbedClient()
        stubbed.stubs.register(method, "/items", response)
        return await stubbed.client.fetch(TestEndpoint(method: method), as: type)
    }

    @Test("A Decodable model is decoded with the client's decoder")
    func model() async throws {
        let page = try await fetch(
            .json(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}],"total_results":1}"#), as: MoviePage.self
        ).get()
        #expect(page == MoviePage(page: 1, results: [Movie(id: 550, title: "Fight Club")], totalResults: 1))
    }

    @Test("The client's decoder settings are used")
    func customDecoder() async throws {
        struct Snake: Decodable, Equatable { let totalResults: Int }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let stubs = StubSession()
        stubs.register(.get, "/items", .json(#"{"total_results":7}"#))
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session), configuration: ClientConfiguration(decoder: decoder))
        #expect(try await client.fetch(TestEndpoint(), as: Snake.self).get() == Snake(totalResults: 7))
    }

    @Test("Empty ignores the body, on 204 and on HEAD alike")
    func empty() async throws {
        #expect(try await fetch(.status(204), as: Empty.self).get() == Empty())
        #expect(try await fetch(.text("not json at all"), as: Empty.self).get() == Empty())
        #expect(try await fetch(.status(200), as: Empty.self, method: .head).get() == Empty())
    }

    @Test("Data returns the body bytes as they came")
    func data() async throws {
        let bytes = Data([0, 1, 2, 0xFE, 0xFF])
        #expect(try await fetch(StubResponse(body: bytes), as: Data.self).get() == bytes)
        #expect(try await fetch(.status(204), as: Data.self).get() == Data())
    }

    @Test("String returns the UTF-8 text, and invalid UTF-8 is a decoding failure")
    func string() async throws {
        #expect(try await fetch(.text("héllo 🎬"), as: String.self).get() == "héllo 🎬")
        let invalid = Data([0xC3, 0x28])
        #expect(
            await fetch(StubResponse(body: invalid), as: String.self).failure
                == .decodingFailed(
                    "String: the body is not valid UTF-8", body: invalid,
                    error: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not valid UTF-8"))))
    }

    @Test("An empty body where a value is expected is .invalidData")
    func emptyBody() async {
        #expect(await fetch(.status(204), as: Movie.self).failure == .invalidData)
        #expect(await fetch(.status(200), as: [Movie].self).failure == .invalidData)
    }

    @Test("An empty body decodes as nil for an optional type")
    func optional() async throws {
        #expect(try await fetch(.status(204), as: Movie?.self).get() == nil)
        #expect(try await fetch(.status(204), as: String?.self).get() == nil)
        #expect(try await fetch(.status(204), as: Data?.self).get() == nil)
        #expect(try await fetch(.json(#"{"id":1,"title":"A"}"#), as: Movie?.self).get() == Movie(id: 1, title: "A"))
        #expect(try await fetch(.json("null"), as: Movie?.self).get() == nil)
    }

    @Test("Optional Data, String and Empty get the same special treatment as the plain types")
    func optionalRawTypes() async throws {
        #expect(try await fetch(.text("hello"), as: String?.self).get() == "hello")
        #expect(try await fetch(.text("hello"), as: Data?.self).get() == Data("hello".utf8))
        #expect(try await fetch(.text("hello"), as: Empty?.self).get() == Empty())
    }

    @Test(
        "Decoding failures name the type, the coding path and what was wrong",
        arguments: [
            (
                #"{"page":1,"results":[],"total":3}"#,
                "MoviePage: key 'total_results' not found"
            ),
            (
                #"{"page":1,"total_results":4,"results":[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":3,"title":"c"},{"id":4}]}"#,
                "MoviePage: key 'title' not found at results[3]"
            ),
            (
                #"{"page":"one","results":[],"total_results":0}"#,
                "MoviePage: expected Int at page"
            ),
            (
                #"{"page":1,"results":[{"id":null,"title":"x"}],"total_results":1}"#,
                "MoviePage: expected Int but found null at results[0].id"
            ),
            (
                "<html><body>Bad gateway</body></html>",
                "MoviePage: The given data was not valid JSON."
            ),
        ])
    func decodingFailures(body: String, expectedPrefix: String) async throws {
        let error = try #require(await fetch(.json(body), as: MoviePage.self).failure)
        guard case .decodingFailed(let reason, let received, let underlying) = error else {
            Issue.record("expected .decodingFailed, got \(error)")
            return
        }
        #expect(reason.hasPrefix(expectedPrefix), "\(reason)")
        #expect(received == Data(body.utf8))
        #expect(underlying is DecodingError, "the decoder's error is kept: \(underlying)")
        #expect(error.underlying(as: DecodingError.self) != nil)
        #expect(error.description.hasPrefix("Decoding failed: \(expectedPrefix)"))
    }

    @Test("Decoding runs off the main actor even when the caller is on it")
    @MainActor
    func offMainActor() async throws {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
        #expect(DispatchQueue.getSpecific(key: key) == "main", "the test itself runs on the main queue")

        let decoder = JSONDecoder()
        let probe = QueueProbe(key: key)
        decoder.userInfo[QueueProbe.userInfoKey] = probe
        let stubs = StubSession()
        stubs.register(.get, "/items", .json("{}"))
        let client = NetworkClient(
            transport: URLSessionTransport(session: stubs.session), configuration: ClientConfiguration(decoder: decoder))
        _ = try await client.fetch(TestEndpoint(), as: ProbedValue.self).get()
        #expect(probe.observed == [nil])
    }
}

/// Records which queue label was current each time a ``ProbedValue`` was decoded.
final class QueueProbe: Sendable {
    static let userInfoKey = CodingUserInfoKey(rawValue: "queueProbe")!
    let key: DispatchSpecificKey<String>
    private let values = LockedArray<String?>()

    init(key: DispatchSpecificKey<String>) { self.key = key }

    func record() { values.append(DispatchQueue.getSpecific(key: key)) }
    var observed: [String?] { values.elements }
}

struct ProbedValue: Decodable {
    init(from decoder: any Decoder) throws {
        (decoder.userInfo[QueueProbe.userInfoKey] as? QueueProbe)?.record()
    }
}
