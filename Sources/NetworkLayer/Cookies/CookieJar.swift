import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that keeps the cookies servers set and sends them back, the same over every
/// transport (AsyncHTTPClient keeps none of its own): a sign-in's session cookie reaches the calls after it.
///
/// It follows RFC 6265: a cookie without `Domain` goes back to its host only; a `Domain` must
/// match the host that set it, and one with no dot (`com`, `localhost`) or an IP address is taken as
/// host-only when it is the host itself and refused otherwise (it knows no public-suffix list, so
/// `co.uk` is not refused); `Path` and its default; `Secure` cookies are neither set over `http` nor
/// sent over it; `Max-Age` wins over `Expires`, and an expired one deletes the cookie; a cookie
/// replaces the one of the same name, domain and path; they are sent longest path first, then oldest.
/// `HttpOnly` and `SameSite` are stored, for you to read.
///
/// The cookies live in memory, bounded by the limits its initialiser takes. Add the jar to a client; every redirect hop
/// goes through it too, so a cookie a redirect sets (a sign-in's `303`) is kept and sent on:
///
/// ```swift
/// let jar = CookieJar()
/// let client = NetworkClient { $0.interceptors = [jar] }
/// ```
///
/// `URLSessionTransport.defaultConfiguration()` turns URLSession's own cookie handling off, so cookies are
/// neither stored nor sent twice; over a session of your own, set `httpShouldSetCookies` to `false`.
public final class CookieJar: Interceptor {
    /// How many cookies the jar keeps, and how large one may be.
    struct Limits: Sendable, Equatable {
        /// The most bytes of one `Set-Cookie` value, attributes included; a longer one is ignored.
        var maximumCookieSize = 4096
        /// The most cookies for one domain; past it the oldest of that domain goes.
        var maximumCookiesPerDomain = 50
        /// The most cookies in the jar; past it the oldest goes.
        var maximumCookies = 3000
    }

    /// The jar's bounds.
    let limits: Limits
    private let jar = Locked(Storage())

    /// Creates an empty jar, bounded as RFC 6265 §6.1's minimums and browsers are by default.
    /// - Parameters:
    ///   - maximumCookieSize: The most bytes of one `Set-Cookie` value, attributes included; a longer
    ///     one is ignored. 4096 by default.
    ///   - maximumCookiesPerDomain: The most cookies for one domain; past it the oldest of that domain
    ///     goes. 50 by default.
    ///   - maximumCookies: The most cookies in the jar; past it the oldest goes. 3000 by default.
    public init(maximumCookieSize: Int = 4096, maximumCookiesPerDomain: Int = 50, maximumCookies: Int = 3000) {
        limits = Limits(
            maximumCookieSize: maximumCookieSize, maximumCookiesPerDomain: maximumCookiesPerDomain, maximumCookies: maximumCookies)
    }

    /// Every cookie in the jar that has not expired at `date`, in sending order.
    /// - Parameter date: The time to judge expiry by; now by default.
    public func cookies(at date: Date = Date()) -> [Cookie] {
        Self.sendingOrder(jar.withLock { Array($0.cookies.values) }.filter { !$0.isExpired(at: date) })
    }

    /// The cookies the jar sends with a request to `url` at `date`, in the order it sends them.
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - date: The time to judge expiry by; now by default.
    public func cookies(for url: URL, at date: Date = Date()) -> [Cookie] {
        Self.sendingOrder(jar.withLock { Array($0.cookies.values) }.filter { !$0.isExpired(at: date) && $0.matches(url) })
    }

    /// The `Cookie` field value for a request to `url` at `date` (`a=1; b=2`), `nil` when no cookie matches.
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - date: The time to judge expiry by; now by default.
    func cookieHeader(for url: URL, at date: Date = Date()) -> String? {
        let cookies = cookies(for: url, at: date)
        return cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the cookies of `Set-Cookie` values received from `url` at `date`; the ones RFC 6265 or the
    /// ``limits`` refuse are ignored, never an error.
    /// - Parameters:
    ///   - values: `Set-Cookie` field values, one cookie each, or several joined by ", " as transports join repeated fields.
    ///   - url: The URL of the response that carried them.
    ///   - date: The time they arrived, which `Max-Age` counts from; now by default.
    func store(setCookie values: [String], from url: URL, at date: Date = Date()) {
        let parsed = values.flatMap(SetCookieParser.split).compactMap {
            SetCookieParser.parse($0, maximumSize: limits.maximumCookieSize)
        }
        guard !parsed.isEmpty else { return }
        jar.withLock { storage in
            for cookie in parsed { insert(cookie, from: url, at: date, into: &storage) }
            evict(at: date, from: &storage)
        }
    }

    /// Stores the `Set-Cookie` fields of `response`, received from its URL (or `url` when it has none).
    /// - Parameters:
    ///   - response: A response, of which only the headers are read.
    ///   - url: The URL the request went to, used when the response has no URL.
    ///   - date: The time it arrived; now by default.
    func store(from response: HTTPResponse, for url: URL, at date: Date = Date()) {
        guard let values = response.headers["Set-Cookie"] else { return }
        store(setCookie: [values], from: response.url ?? url, at: date)
    }

    /// Removes every cookie.
    public func removeAll() {
        jar.withLock { $0.cookies.removeAll() }
    }

    /// Removes the cookies for which `shouldRemove` is `true`.
    public func removeCookies(where shouldRemove: (Cookie) -> Bool) {
        jar.withLock { $0.cookies = $0.cookies.filter { !shouldRemove($0.value) } }
    }

    /// Adds the jar's cookies to the request's `Cookie` field (after any it has), sends it, and stores
    /// the response's `Set-Cookie` fields: for each exchange, redirect hops included, so the cookies a
    /// redirect sets are kept and the next hop carries those of its own URL.
    public func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        guard let url = request.url else { return try await next(request) }
        var request = request
        if let cookies = cookieHeader(for: url) {
            let own = request.value(forHTTPHeaderField: "Cookie").flatMap { $0.isEmpty ? nil : $0 }
            request.setValue(own.map { $0 + "; " + cookies } ?? cookies, forHTTPHeaderField: "Cookie")
        }
        let response = try await next(request)
        store(from: response.head, for: url)
        return response
    }

    /// RFC 6265 §5.4 step 2: longer paths first, then earlier creation.
    static func sendingOrder(_ cookies: [Cookie]) -> [Cookie] {
        cookies.sorted {
            let (left, right) = ($0.path.utf8.count, $1.path.utf8.count)
            return left != right ? left > right : isOlder($0, $1)
        }
    }
}
