import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Aims every request of a ``MovieClient`` at its ``APIEnvironment``, signs it with the API key and
/// gives it the client's timeout: an ``Interceptor`` that adapts each attempt.
///
/// A ``MovieAPI`` call builds its request for production, without a key. TMDB v3 takes the key as
/// the `api_key` query parameter; it goes first, after any query the environment's base URL has:
/// `…/3/movie/popular?api_key=KEY&page=1`. The body, method and headers are left as they are.
public struct TMDBSigner: Interceptor {
    /// Where requests go.
    public let environment: APIEnvironment
    /// The TMDB v3 API key sent as `api_key`.
    public let apiKey: String
    /// The seconds each request may stay idle, or `nil` for the session's timeout.
    public let timeout: TimeInterval?

    /// Creates a signer for `environment` and `apiKey`.
    /// - Parameter timeout: The seconds each request may stay idle; the session's timeout by default.
    public init(environment: APIEnvironment, apiKey: String, timeout: TimeInterval? = nil) {
        self.environment = environment
        self.apiKey = apiKey
        self.timeout = timeout
    }

    /// Returns ``signed(_:)``.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        try signed(request)
    }

    /// `request`, built for production, aimed at ``environment`` with `api_key` first in its query
    /// and ``timeout`` as its timeout.
    /// - Throws: ``APIError/invalidURL(_:)`` when the request is not for the production API or the
    ///   environment's base URL is not a URL.
    public func signed(_ request: URLRequest) throws(APIError) -> URLRequest {
        let production = APIEnvironment.production.baseURL
        guard let url = request.url?.absoluteString, url.hasPrefix(production) else {
            throw .invalidURL(request.url?.absoluteString ?? "")
        }
        // What the call added to the production base URL: its path, and its query after a `?`.
        let call = url.dropFirst(production.count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard var components = URLComponents(string: environment.baseURL) else { throw .invalidURL(environment.baseURL) }
        let key = "api_key=" + (apiKey.addingPercentEncoding(withAllowedCharacters: .urlUnreserved) ?? "")
        components.percentEncodedPath = String(components.percentEncodedPath.trimmingSuffix("/")) + (call.first.map(String.init) ?? "")
        components.percentEncodedQuery = ([components.percentEncodedQuery, key] + call.dropFirst().map(String.init))
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        guard let signedURL = components.url else { throw .invalidURL(environment.baseURL) }
        var signed = request
        signed.url = signedURL
        if let timeout { signed.timeoutInterval = timeout }
        return signed
    }
}

extension StringProtocol {
    /// The text without any trailing `suffix` characters.
    fileprivate func trimmingSuffix(_ suffix: Character) -> SubSequence {
        var text = self[...]
        while text.last == suffix { text = text.dropLast() }
        return text
    }
}

extension CharacterSet {
    /// RFC 3986 unreserved characters, `A-Z a-z 0-9 - . _ ~`: all a query value may carry unescaped.
    static let urlUnreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
