import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCache {
    /// What a stored response may do for a request.
    enum Use: Equatable {
        /// Answer it: fresh enough.
        case fresh
        /// Answer it though stale: the request's `max-stale` allows it.
        case stale
        /// Answer it though stale, and revalidate it in the background: its `stale-while-revalidate`
        /// allows it (RFC 5861 §3).
        case staleWhileRevalidate
        /// Ask the server first.
        case validate
    }

    /// Whether `stored` can answer a request with `directives` at `now` (RFC 9111 §4.2, §5.2.1, §5.2.2;
    /// RFC 8246 for `immutable`).
    static func use(_ stored: CachedResponse, directives: CacheControl, at now: Date) -> Use {
        let response = stored.cacheControl
        let age = stored.currentAge(at: now)
        let lifetime = stored.freshnessLifetime
        let isFresh = age < lifetime
        // An immutable response is not revalidated while fresh, even on a reload.
        if isFresh, response.contains("immutable"), !stored.requiresRevalidation { return .fresh }
        if stored.requiresRevalidation || directives.contains("no-cache") { return .validate }
        if let maxAge = directives.seconds("max-age"), age > TimeInterval(maxAge) { return .validate }
        if let minFresh = directives.seconds("min-fresh"), lifetime - age < TimeInterval(minFresh) { return .validate }
        if isFresh { return .fresh }
        if !response.contains("must-revalidate"), let maxStale = directives.maxStale, age - lifetime <= TimeInterval(maxStale) {
            return .stale
        }
        if !response.contains("must-revalidate"), let window = response.seconds("stale-while-revalidate"),
            age - lifetime <= TimeInterval(window)
        {
            return .staleWhileRevalidate
        }
        return .validate
    }

    /// Whether `stored` may answer at `now` when the server could not (RFC 5861 §4): within the
    /// response's or the request's `stale-if-error` seconds of staleness, and never when it says
    /// `must-revalidate` or `no-cache` (RFC 9111 §5.2.2.2, §5.2.2.4).
    static func staleIfErrorAllows(_ stored: CachedResponse, directives: CacheControl, at now: Date) -> Bool {
        let response = stored.cacheControl
        guard !response.contains("must-revalidate"), !stored.requiresRevalidation else { return false }
        guard let allowance = [response.seconds("stale-if-error"), directives.seconds("stale-if-error")].compactMap({ $0 }).max()
        else { return false }
        return stored.currentAge(at: now) - stored.freshnessLifetime <= TimeInterval(allowance)
    }

    /// The request's `Cache-Control` directives; `Pragma: no-cache` counts as `no-cache` when there
    /// is no `Cache-Control` (RFC 9111 §5.4).
    static func requestDirectives(of request: URLRequest) -> CacheControl {
        if let value = request.value(forHTTPHeaderField: "Cache-Control") { return CacheControl(value) }
        guard let pragma = request.value(forHTTPHeaderField: "Pragma"), CacheControl(pragma).contains("no-cache") else {
            return CacheControl(nil)
        }
        return CacheControl("no-cache")
    }

    /// The stored response as an answer: its status, headers (with its current `Age` and
    /// ``outcomeHeader``; without the fields its `no-cache="…"` names unless just revalidated) and body.
    static func answer(with stored: CachedResponse, _ outcome: Outcome, at now: Date) -> TransportResponse {
        var headers = stored.response.headers
        if outcome != .revalidated {
            for name in stored.noCacheFieldNames { headers.remove(name: name) }
        }
        headers.add(name: "Age", value: String(Int(min(stored.currentAge(at: now), TimeInterval(CacheControl.maximumSeconds)))))
        headers.add(name: outcomeHeader, value: outcome.rawValue)
        return TransportResponse(
            HTTPResponse(statusCode: stored.response.statusCode, headers: headers, body: stored.response.body, url: stored.response.url))
    }

    /// The fields a cache does not store (RFC 9111 §3.1): the hop-by-hop ones, and this cache's own marker.
    private static let unstoredFields: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade", outcomeHeader.lowercased(),
    ]

    /// The fields of `response` not to store: ``unstoredFields`` and those its `Connection` names.
    private static func unstored(in response: HTTPResponse) -> Set<String> {
        var names = unstoredFields
        for name in (response.headers["Connection"] ?? "").utf8.split(separator: UInt8(ascii: ",")) {
            names.insert(String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased())
        }
        return names
    }

    /// `response` as it is stored: without the fields a cache must not store (RFC 9111 §3.1).
    static func storable(_ response: HTTPResponse) -> HTTPResponse {
        let unstored = unstored(in: response)
        guard response.headers.contains(where: { unstored.contains($0.name.lowercased()) }) else { return response }
        let kept = HTTPHeaders(response.headers.filter { !unstored.contains($0.name.lowercased()) })
        return HTTPResponse(statusCode: response.statusCode, headers: kept, body: response.body, url: response.url)
    }

    /// The fields a `304` must not change in a stored response (RFC 9111 §3.2): its body's length
    /// (the stored body is the old one), besides those never stored.
    private static let fieldsKeptOn304: Set<String> = ["content-length"]

    /// `stored` with the headers of `notModified` in place of its own (RFC 9111 §3.2, §4.3.4), and
    /// the times of the validation; `nil` when the `304` names another representation (a
    /// different `ETag`).
    static func updated(_ stored: CachedResponse, with notModified: HTTPResponse, requestTime: Date, responseTime: Date)
        -> CachedResponse?
    {
        if let newTag = notModified.headers["ETag"], let oldTag = stored.response.headers["ETag"],
            weakTag(newTag) != weakTag(oldTag)
        {
            return nil
        }
        var headers = stored.response.headers
        let kept = fieldsKeptOn304.union(unstored(in: notModified))
        for field in notModified.headers where !kept.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        var updated = stored
        updated.response = HTTPResponse(
            statusCode: stored.response.statusCode, headers: headers, body: stored.response.body, url: stored.response.url)
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// An entity tag for the weak comparison (RFC 9110 §8.8.3.2): without its `W/`.
    private static func weakTag(_ tag: String) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }
}

extension APIError {
    /// Whether the server could not be reached or did not answer: a failed connection or a timeout.
    var isNetworkFailure: Bool {
        switch self {
        case .requestFailed, .timedOut: true
        default: false
        }
    }
}
