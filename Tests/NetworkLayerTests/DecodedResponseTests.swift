import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

@Suite("response(for:as:): the decoded value with its status and headers")
struct DecodedResponseTests {
    private func client(_ response: StubResponse, method: HTTPMethod = .get) -> NetworkClient {
        let stubs = StubTransport()
        stubs.register(method, "/items", response)
        return NetworkClient(transport: stubs)
    }

    @Test("The value comes with the status, the headers and the body it was decoded from")
    func valueWithHeaders() async throws {
        let body = #"{"page":2,"results":[{"id":550,"title":"Fight Club"}],"total_results":1}"#
        let stub = StubResponse(
            statusCode: 203, headers: ["Link": #"<https://api.example.com/items?page=3>; rel="next""#, "ETag": #""v2""#],
            body: Data(body.utf8))

        let page = try await client(stub).response(for: TestEndpoint(), as: MoviePage.self)

        #expect(page.value == MoviePage(page: 2, results: [Movie(id: 550, title: "Fight Club")], totalResults: 1))
        #expect(page.statusCode == 203)
        #expect(page.headers["link"] == #"<https://api.example.com/items?page=3>; rel="next""#)
        #expect(page.headers["ETag"] == #""v2""#)
        #expect(page.response.text == body)
    }

    @Test("The type can be inferred from the context")
    func inferred() async throws {
        let movie: Response<Movie> = try await client(.json(#"{"id":1,"title":"Heat"}"#)).response(for: TestEndpoint())
        #expect(movie.value == Movie(id: 1, title: "Heat"))
    }

    @Test("Empty, Data, String and optionals decode as they do for send")
    func specialDecodings() async throws {
        let empty = try await client(.status(204)).response(for: TestEndpoint(), as: Empty.self)
        #expect(empty.value == Empty())
        #expect(empty.statusCode == 204)

        let bytes = Data([0, 1, 0xFE, 0xFF])
        let data = try await client(StubResponse(body: bytes)).response(for: TestEndpoint(), as: Data.self)
        #expect(data.value == bytes)
        #expect(data.response.body == bytes)

        let text = try await client(.text("héllo")).response(for: TestEndpoint(), as: String.self)
        #expect(text.value == "héllo")

        let none = try await client(.status(204)).response(for: TestEndpoint(), as: Movie?.self)
        #expect(none.value == nil)
        #expect(none.statusCode == 204)
    }

    @Test("A status outside the acceptable ones fails with the response, as send does")
    func unacceptableStatus() async {
        let stub = StubResponse.json(#"{"status_message":"Invalid API key"}"#, statusCode: 401)
        let error = await #expect(throws: APIError.self) {
            _ = try await client(stub).response(for: TestEndpoint(), as: Movie.self)
        }
        #expect(error?.statusCode == 401)
        #expect(error?.response?.text == #"{"status_message":"Invalid API key"}"#)
    }

    @Test("A body that does not decode fails with decodingFailed, not a response")
    func decodingFailure() async {
        let error = await #expect(throws: APIError.self) {
            _ = try await client(.json(#"{"id":"one"}"#)).response(for: TestEndpoint(), as: Movie.self)
        }
        guard case .decodingFailed = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
    }
}
