import Foundation

/// Where ``MovieClient`` sends its requests.
///
/// `production` is the real TMDB v3 API. `staging` and `qa` stand for the pre-production
/// deployments a team would have; their hosts are placeholders under the reserved `.example`
/// domain, so point them at your own servers. `custom` is any other base URL, such as the
/// embedded fixture server or one given with `--base-url`.
public enum APIEnvironment: Sendable, Equatable {
    /// The real TMDB v3 API, `https://api.themoviedb.org/3`.
    case production
    /// A staging deployment (placeholder host).
    case staging
    /// A QA deployment (placeholder host).
    case qa
    /// Any base URL, with scheme, host and the API's path prefix, for example `http://127.0.0.1:8080/3`.
    case custom(String)

    /// The environments that have a name on the command line, in the order help lists them.
    public static let named: [APIEnvironment] = [.production, .staging, .qa]

    /// The absolute base URL that endpoint paths are appended to.
    public var baseURL: String {
        switch self {
        case .production: "https://api.themoviedb.org/3"
        case .staging: "https://api.staging.themoviedb.example/3"
        case .qa: "https://api.qa.themoviedb.example/3"
        case .custom(let url): url
        }
    }

    /// ``baseURL`` with `api_key=KEY` as its query, after any query it has: the base URL of a
    /// ``MovieClient``, which every call's path and parameters follow, as in
    /// `…/3/movie/popular?api_key=KEY&page=1`. `nil` when ``baseURL`` is not a URL.
    public func baseURL(apiKey: String) -> URL? {
        guard var components = URLComponents(string: baseURL) else { return nil }
        let key = "api_key=" + (apiKey.addingPercentEncoding(withAllowedCharacters: .urlUnreserved) ?? "")
        components.percentEncodedQuery = [components.percentEncodedQuery, key].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: "&")
        return components.url
    }

    /// The name used by `--env`, or `nil` for ``custom(_:)``.
    public var name: String? {
        switch self {
        case .production: "production"
        case .staging: "staging"
        case .qa: "qa"
        case .custom: nil
        }
    }

    /// The named environment called `name` (`production`, `staging` or `qa`), or `nil`.
    public init?(name: String) {
        guard let environment = Self.named.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = environment
    }
}

extension CharacterSet {
    /// RFC 3986 unreserved characters, `A-Z a-z 0-9 - . _ ~`: all a query value may carry unescaped.
    static let urlUnreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
