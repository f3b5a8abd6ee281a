import Foundation
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API as an enum, as the seeds describe it.
private enum CatalogAPI: Endpoint {
    case page(Int)
    case movie(id: Int)
    case rate(id: Int, value: Double)

    var base: String { "https://api.example.com" }
    var path: String {
        switch self {
        case .page: "/items"
        case .movie(let id): "/items/\(id)"
        case .rate(let id, _): "/items/\(id)/rating"
        }
    }
    var method: HTTPMethod { if case .rate = self { .post } else { .get } }
    var headers: HTTPHeaders { ["Accept": "application/json"] }
    var options: CallOptions { if case .rate = self { CallOptions(timeout: 5) } else { CallOptions() } }
    var task: HTTPTask {
        switch self {
        case .page(let page): .requestParameters(urlParameters: ["page": page])
        case .movie: .request
        case .rate(_, let value): .requestJSONBody(["value": value])
        }
    }
    var urlParameterEncoder: URLParameterEncoder { URLParameterEncoder(boolEncoding: .numeric) }
}

// Each call with its response type, through static factories: constrained, and unconstrained with the type spelled out.
extension Request where Value == MoviePage {
    fileprivate static func page(_ page: Int) -> Self { Request(CatalogAPI.page(page)) }
}

extension Request {
    fileprivate static func movie(id: Int) -> Request<Movie> { Request<Movie>(CatalogAPI.movie(id: id)) }
    fileprivate static func rate(id: Int, value: Double) -> Request<Empty> { Request<Empty>(CatalogAPI.rate(id: id, value: value)) }
}

@Suite("Typed requests: the response type travels with the request")
struct TypedRequestTests {
    private let pageBody = #"{"page":1,"results":[{"id":550,"title":"Fight Club"}],"total_results":1}"#

    private func client(_ stubs: StubTransport) -> NetworkClient {
        NetworkClient(transport: stubs)
    }

    @Test("send, fetch and response(for:) infer the type from the request")
    func inferred() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items", StubResponse(headers: ["ETag": #""p1""#], body: Data(pageBody.utf8)))
        stubs.register(.get, "/items/550", .json(#"{"id":550,"title":"Fight Club"}"#))
        stubs.register(.post, "/items/550/rating", .status(204))
        let client = client(stubs)

        let page = try await client.send(.page(1))
        let movie = await client.fetch(.movie(id: 550))
        let rated = try await client.send(.rate(id: 550, value: 8.5))
        let response = try await client.response(for: .page(1))

        #expect(page == MoviePage(page: 1, results: [Movie(id: 550, title: "Fight Club")], totalResults: 1))
        #expect(try movie.get() == Movie(id: 550, title: "Fight Club"))
        #expect(rated == Empty())
        #expect(response.value == page)
        #expect(response.headers["ETag"] == #""p1""#)
    }

    @Test("The enum style with as: keeps working beside it")
    func enumStyle() async throws {
        let stubs = StubTransport()
        stubs.register(.get, "/items/550", .json(#"{"id":550,"title":"Fight Club"}"#))
        #expect(try await client(stubs).send(CatalogAPI.movie(id: 550), as: Movie.self) == Movie(id: 550, title: "Fight Club"))
    }

    @Test("A request made from an endpoint builds exactly the endpoint's request")
    func sameRequest() throws {
        for (endpoint, request) in [
            (CatalogAPI.page(2), try Request<MoviePage>(CatalogAPI.page(2)).urlRequest()),
            (.rate(id: 550, value: 8.5), try Request<Empty>.rate(id: 550, value: 8.5).urlRequest()),
        ] {
            let expected = try endpoint.urlRequest()
            #expect(request.url == expected.url)
            #expect(request.httpMethod == expected.httpMethod)
            #expect(request.allHTTPHeaderFields == expected.allHTTPHeaderFields)
            #expect(request.httpBody == expected.httpBody)
            #expect(request.timeoutInterval == expected.timeoutInterval)
        }
        let rate = Request<Empty>.rate(id: 550, value: 8.5)
        #expect(rate.options.timeout == 5)
        #expect(rate.urlParameterEncoder == URLParameterEncoder(boolEncoding: .numeric))
    }

    @Test("A request described from its parts, without an enum")
    func fromParts() async throws {
        let stubs = StubTransport()
        stubs.register(.put, "/items/550", .json(#"{"id":550,"title":"Heat"}"#))
        let request = Request<Movie>(
            base: "https://api.example.com", path: "/items/550", method: .put, headers: ["X-Trace": "1"],
            task: .requestJSONBody(["title": "Heat"]))

        let movie = try await client(stubs).send(request)

        #expect(movie == Movie(id: 550, title: "Heat"))
        #expect(stubs.requests.first?.headers["X-Trace"] == "1")
        #expect(stubs.requests.first?.bodyText == #"{"title":"Heat"}"#)
    }

    @Test("A typed request fails as any endpoint does")
    func failure() async {
        let stubs = StubTransport()
        stubs.register(.get, "/items/1", .status(404))
        #expect(await client(stubs).fetch(.movie(id: 1)).failure?.statusCode == 404)
    }
}
