import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The declarations the documentation's articles share, as the articles write them. Each article's
/// snippets are compiled and run by the test file that names it (`GettingStartedArticleTests` for
/// GettingStarted.md, and so on), so the documentation cannot rot.
enum Article {
    // GettingStarted.md: "Describe the API".
    struct Rating: Encodable { let value: Double }
    struct Movie: Decodable, Sendable { let id: Int; let title: String }
    struct MoviePage: Decodable, Sendable { let page: Int; let results: [Movie] }

    enum MovieAPI: Endpoint {
        case popular(page: Int)
        case rate(id: Int, value: Double)

        var base: String { "https://api.themoviedb.org/3" }
        var path: String {
            switch self {
            case .popular: "/movie/popular"
            case .rate(let id, _): "/movie/\(id)/rating"
            }
        }
        var method: HTTPMethod { if case .rate = self { .post } else { .get } }
        var task: HTTPTask {
            switch self {
            case .popular(let page): .requestParameters(urlParameters: ["page": page, "include_adult": false])
            case .rate(_, let value): .requestJSONBody(Rating(value: value))
            }
        }
    }

    // GettingStarted.md: "Give each call its response type".
    struct MovieClient: APIClient {
        let transport: any HTTPTransport
        let configuration = ClientConfiguration(baseURL: URL(string: "https://api.themoviedb.org/3"))
    }

    // GettingStarted.md: "Point the client at an environment".
    enum NotesAPI: Endpoint {
        case list
        var path: String { "/notes" }
    }
    struct Note: Decodable { let id: Int }

    /// A client over `stubs` whose completion handlers run on a queue of its own, not the main queue.
    static func client(_ stubs: StubSession, interceptors: [any Interceptor] = []) -> NetworkClient {
        NetworkClient(
            transport: URLSessionTransport(session: stubs.session),
            configuration: ClientConfiguration(interceptors: interceptors, callbackQueue: DispatchQueue(label: "articles")))
    }

    /// Stands in for the app's token service and token store.
    final class TokenService: Sendable {
        private let refreshCount = Locked(0)
        var refreshes: Int { refreshCount.withLock { $0 } }
        func refresh() async throws -> String { "fresh-\(refreshCount.withLock { $0 += 1; return $0 })" }
        func token() async throws -> String { "stored" }
    }
}

/// The suites of the articles' snippets, one nested suite per article. They run one test at a time:
/// together they would start three dozen requests, sessions and files at once beside the other
/// suites, and on a two-core machine that start-up rush delays the timing-sensitive suites.
@Suite("Documentation articles", .serialized)
struct ArticleTests {}
