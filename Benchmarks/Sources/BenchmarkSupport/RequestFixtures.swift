import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request the building benchmarks make, and the parameters the encoding benchmarks encode.
///
/// One request has 10 query parameters (arrays, nested dictionaries, bytes that need escaping)
/// and a JSON body; `scale` repeats both `scale` times under distinct keys for the growth table.
public enum RequestFixtures {
    /// Where the requests go.
    public static let base = "https://api.example.com/3"
    /// The path, which needs no escaping, so both builders do the same work on it.
    public static let path = "/discover/movie"
    /// The headers both builders set.
    public static let headers: [(name: String, value: String)] = [
        ("Accept", "application/json"), ("Authorization", "Bearer 0123456789abcdef"),
    ]

    /// Ten query parameters of every kind, `scale` times: key `q` at scale 3 is `q`, `q_1`, `q_2`.
    public static func queryParameters(scale: Int = 1) -> [String: Any] {
        let one: [String: Any] = [
            "q": "fight club & more/é 100%",
            "page": 2,
            "per_page": 50,
            "sort": "release_date.desc",
            "include_adult": false,
            "ids": [550, 680, 13, 278],
            "genres": ["crime", "drama", "sci fi"],
            "filter": ["year": 1999, "language": "en-US", "vote": ["gte": 7.5, "lte": 9]] as [String: Any],
            "region": "GB",
            "token": "a+b=c?d#e",
        ]
        return repeated(one, scale: scale)
    }

    /// A JSON body of eight fields, `scale` times.
    public static func bodyParameters(scale: Int = 1) -> [String: Any] {
        let one: [String: Any] = [
            "title": "Fight Club",
            "rating": 8.5,
            "watched": true,
            "tags": ["classic", "cult", "1990s"],
            "notes": "Line one\nline \"two\"",
            "meta": ["source": "benchmark", "version": 3] as [String: Any],
            "seen_at": "2024-05-01T10:00:00Z",
            "friends": 12,
        ]
        return repeated(one, scale: scale)
    }

    /// Twenty parameters for the query and form encoding benchmarks: text that needs escaping,
    /// numbers, booleans, arrays and one nested dictionary.
    public static var twentyParameters: [String: Any] {
        [
            "query": "the matrix reloaded",
            "title": "Amélie & Nino",
            "page": 3,
            "per_page": 100,
            "sort": "popularity.desc",
            "include_adult": false,
            "include_video": true,
            "language": "en-US",
            "region": "FR",
            "year": 2001,
            "vote_average": 7.9,
            "with_genres": [35, 10749],
            "without_keywords": ["remake", "sequel"],
            "with_people": "287,819",
            "certification": "PG-13",
            "callback": "https://example.com/cb?x=1&y=2",
            "note": "100% \"fresh\"",
            "filter": ["runtime": 120, "status": "released"] as [String: Any],
            "token": "a+b/c=d",
            "empty_ok": "",
        ]
    }

    private static func repeated(_ one: [String: Any], scale: Int) -> [String: Any] {
        var all: [String: Any] = [:]
        all.reserveCapacity(one.count * scale)
        for copy in 0..<scale {
            for (key, value) in one {
                all[copy == 0 ? key : "\(key)_\(copy)"] = value
            }
        }
        return all
    }
}

/// The request of the building benchmarks as an ``Endpoint``.
public struct DiscoverEndpoint: Endpoint {
    /// The query parameters, ``RequestFixtures/queryParameters(scale:)``.
    public let query: Parameters
    /// The JSON body parameters, ``RequestFixtures/bodyParameters(scale:)``.
    public let body: Parameters

    /// The request with its parameters repeated `scale` times, converted to ``Parameters`` once.
    public init(scale: Int = 1) {
        query = Parameters(RequestFixtures.queryParameters(scale: scale))
        body = Parameters(RequestFixtures.bodyParameters(scale: scale))
    }

    /// ``RequestFixtures/base``.
    public var base: String { RequestFixtures.base }
    /// ``RequestFixtures/path``.
    public var path: String { RequestFixtures.path }
    /// `POST`, since it carries a body.
    public var method: HTTPMethod { .post }
    /// ``RequestFixtures/headers``.
    public var headers: HTTPHeaders {
        HTTPHeaders(RequestFixtures.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
    }
    /// The query parameters in the URL and the body parameters as JSON.
    public var task: HTTPTask { .requestParameters(bodyParameters: body, bodyEncoding: .json, urlParameters: query) }
}
