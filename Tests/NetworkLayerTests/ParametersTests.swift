import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An API described the usual way: an enum whose cases carry what the call needs.
private enum SearchAPI: Endpoint {
    case search(query: String, page: Int, genres: [String])

    var base: String { "https://api.example.com" }
    var path: String { "/search" }
    var task: HTTPTask {
        switch self {
        case .search(let query, let page, let genres):
            .requestParameters(urlParameters: ["query": query, "page": page, "filter": ["year": 1995, "genres": genres], "adult": false])
        }
    }
}

/// A type of the caller's own that says it is a parameter value, although no encoder can write it.
private struct Token: ParameterValue {}

/// `parameters` as a JSON body.
private func json(_ parameters: Parameters) throws -> String? {
    let request = try JSONParameterEncoder().encode(parameters, into: URLRequest(url: try #require(URL(string: "https://h.test"))))
    return bodyText(of: request)
}

/// Requires a `Sendable` value, so that a test that calls it compiles only when the value is `Sendable`.
private func sendable<T: Sendable>(_ value: T) -> T { value }

@Suite("Parameters: Sendable values, nested literals and run-time dictionaries")
struct ParametersTests {
    @Test("A task and a typical endpoint are Sendable: an endpoint crosses into another task")
    func sendableEndpoint() async throws {
        let endpoint = sendable(SearchAPI.search(query: "heat", page: 2, genres: ["crime"]))
        let task = sendable(HTTPTask.requestJSONBody(["title": "Heat"], urlParameters: ["page": 1]))
        let built = try await Task.detached { try endpoint.urlRequest() }.value
        #expect(query(of: built) == "adult=false&filter%5Bgenres%5D%5B%5D=crime&filter%5Byear%5D=1995&page=2&query=heat")
        #expect(try bodyText(of: TestEndpoint(method: .post, task: task).urlRequest()) == #"{"title":"Heat"}"#)
    }

    @Test("Nested literals mix types without casts, and variables go in as they are")
    func nestedLiterals() throws {
        let page = 3
        let ids: [Int] = [550, 680]
        let rating: Double? = nil
        let minimum: [String: Int] = ["votes": 100]
        let parameters: Parameters = [
            "filter": ["year": 1995, "genres": ["crime"], "min": Parameters(minimum)], "adult": false, "page": page, "ids": ids,
            "rating": rating,
        ]
        #expect(
            try URLParameterEncoder().query(for: parameters)
                == "adult=false&filter%5Bgenres%5D%5B%5D=crime&filter%5Bmin%5D%5Bvotes%5D=100&filter%5Byear%5D=1995"
                + "&ids%5B%5D=550&ids%5B%5D=680&page=3")
    }

    @Test("A run-time dictionary encodes as the same literal does, in a query and in JSON")
    func runTimeDictionary() throws {
        var built: [String: Any] = ["page": 2, "adult": false]
        built["filter"] = ["year": 1995, "genres": ["crime", "drama"]] as [String: Any]
        built["note"] = String?.none as Any
        built["nothing"] = NSNull()
        let literal: Parameters = [
            "page": 2, "adult": false, "filter": ["year": 1995, "genres": ["crime", "drama"]], "note": String?.none,
            "nothing": String?.none,
        ]

        let converted = Parameters(built)

        #expect(try URLParameterEncoder().query(for: converted) == URLParameterEncoder().query(for: literal))
        #expect(try json(converted) == json(literal))
        #expect(
            try json(literal) == #"{"adult":false,"filter":{"genres":["crime","drama"],"year":1995},"note":null,"nothing":null,"page":2}"#)
    }

    @Test("An array of mixed types from a run-time dictionary keeps every element")
    func mixedArray() throws {
        let parameters = Parameters(["tags": [1, "two", 3.5, ["deep": true] as [String: Any]] as [Any]])
        #expect(try json(parameters) == #"{"tags":[1,"two",3.5,{"deep":true}]}"#)
    }

    @Test("Numbers parsed by JSONSerialization keep their text and their kind")
    func parsedNumbers() throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(#"{"on":false,"big":12345678901234,"pi":3.25}"#.utf8))
        let parameters = Parameters(try #require(parsed as? [String: Any]))
        #expect(try URLParameterEncoder().query(for: parameters) == "big=12345678901234&on=false&pi=3.25")
    }

    @Test("An unsupported value of a run-time dictionary fails when encoded, naming its key path")
    func unsupportedRunTimeValue() {
        let nested = Parameters(["filter": ["since": Date(timeIntervalSince1970: 0)] as [String: Any]])
        #expect {
            try URLParameterEncoder().query(for: nested)
        } throws: { error in
            (error as? APIError)?.encodingFailureReason?.hasPrefix("parameter 'filter.since': Date is not supported") == true
        }
        let inArray = Parameters(["ids": [1, Date(timeIntervalSince1970: 0)] as [Any]])
        #expect {
            try TestEndpoint(method: .post, task: .requestParameters(bodyParameters: inArray)).urlRequest()
        } throws: { error in
            (error as? APIError)?.encodingFailureReason?.hasPrefix("parameter 'ids[1]': Date is not supported") == true
        }
    }

    @Test("A type of one's own that conforms but that no encoder writes fails naming its key path")
    func ownConformance() {
        #expect(
            throws: APIError.encodingFailed(
                "parameter 'auth.token': Token is not supported; use String, Bool, an integer, Double, Decimal, or arrays and dictionaries of them"
            )
        ) {
            try URLParameterEncoder().query(for: ["auth": ["token": Token()]])
        }
    }
}
