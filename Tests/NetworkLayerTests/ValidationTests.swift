import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's own error, decoded from a JSON error body.
struct ServerError: Error, Codable, Equatable {
    let code: String
    let message: String
}

/// Another error of the app's, for a check that is not about the body.
private struct Deprecated: Error, Equatable {}

@Suite("Validation hooks: the app's own errors")
struct ValidationTests {
    /// A client whose hook turns any 4xx or 5xx JSON body into a ``ServerError``, counting its calls.
    private static func validatingClient(_ stubs: StubTransport, interceptors: [any Interceptor] = [], calls: Counter = Counter())
        -> NetworkClient
    {
        NetworkClient(transport: stubs, configuration: ClientConfiguration(interceptors: interceptors)).withValidation { response in
            calls.increment()
            if response.statusCode >= 400, let error = try? response.decode(ServerError.self) { throw error }
        }
    }

    private static let serverError = #"{"code":"title_missing","message":"A note needs a title"}"#

    @Test("A 4xx body becomes the app's error, caught as that type with the response beside it")
    func clientHookDecodesErrorBody() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(Self.serverError, statusCode: 422))
        let error = await #expect(throws: APIError.self) { try await Self.validatingClient(stubs).send(TestEndpoint(), as: Movie.self) }
        guard case .validationFailed(let serverError as ServerError, let response)? = error else {
            Issue.record("expected validationFailed(ServerError), got \(String(describing: error))")
            return
        }
        #expect(serverError == ServerError(code: "title_missing", message: "A note needs a title"))
        #expect(response.statusCode == 422)
        #expect(error?.statusCode == 422)
        #expect(error?.underlying(as: ServerError.self) == serverError)
        #expect(
            error?.description
                == "The response (422 Unprocessable Entity) failed validation: ServerError(code: \"title_missing\", message: \"A note needs a title\")"
        )
        // Without the hook the same answer is the library's error.
        #expect(await NetworkClient(transport: stubs).fetch(TestEndpoint(), as: Movie.self).failure?.statusCode == 422)
        #expect(await NetworkClient(transport: stubs).fetch(TestEndpoint(), as: Movie.self).failure?.underlyingError == nil)
    }

    @Test("A hook that does not throw leaves an unacceptable status its unacceptableStatusCode")
    func unacceptableStatusStays() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .text("<html>busy</html>", statusCode: 500))
        let calls = Counter()
        let failure = await Self.validatingClient(stubs, calls: calls).fetch(TestEndpoint(), as: Movie.self).failure
        guard case .unacceptableStatusCode(500, let response)? = failure else {
            Issue.record("expected unacceptableStatusCode(500), got \(String(describing: failure))")
            return
        }
        #expect(response.text == "<html>busy</html>")
        #expect(calls.count == 1)
    }

    @Test("An accepted response is checked before it is decoded, and an APIError the hook throws is kept as it is")
    func acceptedResponseChecked() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", StubResponse(headers: ["Sunset": "yes"], body: Data("not JSON".utf8)))
        let client = NetworkClient(transport: stubs).withValidation { response in
            if response.headers["Sunset"] != nil { throw Deprecated() }
        }
        let failure = await client.fetch(TestEndpoint(), as: Movie.self).failure
        #expect(
            failure?.underlying(as: Deprecated.self) != nil, "the hook ran before the body failed to decode: \(String(describing: failure))"
        )
        let rethrowing = NetworkClient(transport: stubs).withValidation { _ in throw APIError.invalidData }
        #expect(await rethrowing.fetch(TestEndpoint(), as: Movie.self).failure == .invalidData)
    }

    @Test("A retrier still sees unacceptableStatusCode for a 503, and the hook sees only the response the call ends with")
    func hookRunsAfterRetries() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(#"{"code":"busy","message":"later"}"#, statusCode: 503))
        stubs.register(.get, "/items", .json(#"{"id":1,"title":"A"}"#))
        let retry = RetryPolicy(baseDelay: 0, random: { 0 })
        let calls = Counter()
        #expect(
            try await Self.validatingClient(stubs, interceptors: [retry], calls: calls).send(TestEndpoint(), as: Movie.self)
                == Movie(id: 1, title: "A"))
        #expect(stubs.requests.count == 2, "the 503 was retried")
        #expect(calls.count == 1, "the hook saw the 200 only")

        let busy = StubTransport()
        busy.register(.get, "/items", .json(#"{"code":"busy","message":"later"}"#, statusCode: 503))
        let failure = await Self.validatingClient(busy, interceptors: [retry]).fetch(TestEndpoint(), as: Movie.self).failure
        #expect(busy.requests.count == 3, "every attempt was made")
        #expect(failure?.underlying(as: ServerError.self) == ServerError(code: "busy", message: "later"))
    }

    @Test("The endpoint's hook runs before the client's, and a Request keeps its endpoint's hook")
    func endpointHookFirst() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(Self.serverError, statusCode: 401))
        var endpoint = TestEndpoint()
        endpoint.validateResponse = { response in if response.statusCode == 401 { throw Deprecated() } }
        let client = Self.validatingClient(stubs)
        #expect(await client.fetch(endpoint, as: Movie.self).failure?.underlying(as: Deprecated.self) != nil)
        #expect(await client.fetch(Request<Movie>(endpoint)).failure?.underlying(as: Deprecated.self) != nil)
        #expect(await client.fetch(TestEndpoint(), as: Movie.self).failure?.underlying(as: ServerError.self) != nil)
    }

    @Test("Every verb reports the app's error: raw responses, hand-built requests, uploads, downloads and streams")
    func everyVerb() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", .json(Self.serverError, statusCode: 404))
        stubs.register(.post, "/items", .json(Self.serverError, statusCode: 404))
        let client = Self.validatingClient(stubs)
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/items")))
        let expected = ServerError(code: "title_missing", message: "A note needs a title")
        let directory = try TemporaryDirectory()
        let errors: [APIError?] = [
            await #expect(throws: APIError.self) { try await client.response(for: TestEndpoint()) },
            await #expect(throws: APIError.self) { try await client.response(with: request) },
            await #expect(throws: APIError.self) { try await client.response(with: request, as: Movie.self) },
            await #expect(throws: APIError.self) {
                try await client.upload(for: TestEndpoint(method: .post, task: .requestJSONBody(["a": 1])), as: Empty.self)
            },
            await #expect(throws: APIError.self) { try await client.download(for: TestEndpoint(), to: directory.file("x")) },
            await #expect(throws: APIError.self) { try await client.stream(for: TestEndpoint()) },
        ]
        #expect(errors.map { $0?.underlying(as: ServerError.self) } == Array(repeating: expected, count: errors.count))
    }

    @Test("A refresh that fails keeps the refresh's own error, even one from a validation hook")
    func refreshKeepsItsError() async throws {
        let stubs = StubSession()
        stubs.register(.get, "/items", .status(401))
        let tokens = StubTransport()
        tokens.register(.post, "/token", .json(#"{"code":"revoked","message":"Log in again"}"#, statusCode: 400))
        let tokenClient = Self.validatingClient(tokens)
        let auth = RefreshingAuthenticator(token: "old") { _ in
            try await tokenClient.send(TestEndpoint(path: "/token", method: .post), as: String.self)
        }
        let failure = await client(stubs, [auth]).fetch(TestEndpoint(), as: Movie.self).failure
        guard case .credentialRefreshFailed(let error as APIError)? = failure else {
            Issue.record("expected credentialRefreshFailed(APIError), got \(String(describing: failure))")
            return
        }
        #expect(error.statusCode == 400)
        #expect(failure?.underlying(as: ServerError.self) == ServerError(code: "revoked", message: "Log in again"))
    }

    @Test("Errors compare by case and by the errors they keep")
    func equality() {
        let response = HTTPResponse(statusCode: 400)
        let error = ServerError(code: "a", message: "b")
        #expect(APIError.validationFailed(error, response) == .validationFailed(ServerError(code: "a", message: "b"), response))
        #expect(APIError.validationFailed(error, response) != .validationFailed(ServerError(code: "a", message: "c"), response))
        #expect(APIError.validationFailed(error, response) != .validationFailed(Deprecated(), response))
        #expect(APIError.validationFailed(error, response) != .unacceptableStatusCode(400, response))
        let corrupt = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "x"))
        let other = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "y"))
        #expect(APIError.decodingFailed("T", body: Data(), error: corrupt) == .decodingFailed("T", body: Data(), error: corrupt))
        #expect(APIError.decodingFailed("T", body: Data(), error: corrupt) != .decodingFailed("T", body: Data(), error: other))
    }
}
