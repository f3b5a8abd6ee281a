import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CachedResponse {
    /// The statuses a cache may store without explicit freshness, and give heuristic freshness
    /// (RFC 9111 §4.2.2, RFC 9110 §15.1); `206` is left out, as this cache does not combine ranges.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The response's `Cache-Control` directives.
    var cacheControl: CacheControl { CacheControl(response.headers["Cache-Control"]) }

    /// How long the response is fresh after it was generated (RFC 9111 §4.2.1), in seconds, as a
    /// private cache reckons it: `max-age` (`s-maxage` is for shared caches), else `Expires` minus
    /// `Date` (an invalid `Expires` is in the past), else for a heuristically cacheable status with
    /// `Last-Modified`, 10% of the time since it was modified (§4.2.2); else 0.
    var freshnessLifetime: TimeInterval {
        let directives = cacheControl
        if let maxAge = directives.seconds("max-age") { return TimeInterval(maxAge) }
        let headers = response.headers
        let date = headers["Date"].flatMap { HTTPDate.parse($0) } ?? responseTime
        if let expires = headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        guard Self.heuristicallyCacheableStatuses.contains(response.statusCode) || directives.contains("public"),
            let lastModified = headers["Last-Modified"].flatMap({ HTTPDate.parse($0) })
        else { return 0 }
        return max(0, date.timeIntervalSince(lastModified) / 10)
    }

    /// The response's current age at `now` in seconds (RFC 9111 §4.2.3): its corrected initial age
    /// (the larger of its apparent age and its `Age` plus the response delay) plus its time here.
    func currentAge(at now: Date) -> TimeInterval {
        let headers = response.headers
        let dateValue = headers["Date"].flatMap { HTTPDate.parse($0) } ?? responseTime
        let ageValue = headers["Age"].flatMap(Self.ageSeconds) ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, TimeInterval(ageValue) + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// The seconds of an `Age` field: its first member when it is a list (two lines arrive joined
    /// by a comma), `nil` when that is not delta-seconds, which is then ignored (RFC 9111 §5.1).
    static func ageSeconds(_ value: String) -> Int? {
        let first = value.utf8.prefix { $0 != UInt8(ascii: ",") }
        return CacheControl.deltaSeconds(String(decoding: first, as: UTF8.self).trimmingCharacters(in: .whitespaces))
    }

    /// Whether its `no-cache` has no field names: it must be revalidated before each use (RFC 9111
    /// §5.2.2.4). With field names, only those fields wait for a revalidation (``noCacheFieldNames``).
    var requiresRevalidation: Bool {
        guard let entry = cacheControl.directives["no-cache"] else { return false }
        return noCacheFieldNames.isEmpty || entry == nil
    }

    /// The fields its `no-cache="…"` names, lowercased: not sent without a revalidation.
    var noCacheFieldNames: [String] {
        guard case .some(.some(let value)) = cacheControl.directives["no-cache"] else { return [] }
        return value.utf8.split(separator: UInt8(ascii: ",")).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// Whether the response has a validator to revalidate it with.
    var hasValidator: Bool {
        response.headers["ETag"] != nil || response.headers["Last-Modified"] != nil
    }

    /// The request header names the response's `Vary` lists, lowercased; `["*"]` for `Vary: *`.
    var varyNames: [String] {
        guard let vary = response.headers["Vary"] else { return [] }
        return vary.utf8.split(separator: UInt8(ascii: ",")).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// Whether `request` sends the same values of the headers `Vary` names as the stored request did
    /// (RFC 9111 §4.1); never with `Vary: *`.
    func matchesVary(of request: URLRequest) -> Bool {
        for name in varyNames {
            if name == "*" { return false }
            if Self.normalized(request.value(forHTTPHeaderField: name), name: name)
                != Self.normalized(varyingRequestHeaders[name], name: name)
            {
                return false
            }
        }
        return true
    }

    /// The request's values of the headers `response` varies on.
    static func varyingHeaders(of request: URLRequest, for response: CachedResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for name in response.varyNames where name != "*" {
            if let value = request.value(forHTTPHeaderField: name) { headers.add(name: name, value: value) }
        }
        return headers
    }

    /// A header value with the whitespace around its comma-separated items removed, for comparing
    /// (§4.1 allows normalising): ` 1, 2 ` is `1,2`. The language ranges of `Accept-Language`
    /// are compared in any case and order (RFC 9110 §12.5.4).
    private static func normalized(_ value: String?, name: String) -> String? {
        value.map { value in
            var items = value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
            if name == "accept-language" { items = items.map { $0.lowercased() }.sorted() }
            return items.joined(separator: ",")
        }
    }

    /// Whether a private cache may store `response` to `request` (RFC 9111 §3): not `no-store`
    /// (either side; a response's `must-understand` overrides it for a status this cache knows), a
    /// final status it understands, not a `206` nor a `304`, and either explicitly fresh or of a
    /// heuristically cacheable status (a response to a request with `Authorization` included: §3.5's
    /// rule is a shared cache's, and this one keeps each credential's responses apart); and worth keeping: with explicit
    /// freshness (even none, for a request's `max-stale`), fresh for a while, revalidatable, or allowed
    /// to be served stale on errors.
    static func isStorable(_ response: CachedResponse, for request: URLRequest, requestDirectives: CacheControl) -> Bool {
        let directives = response.cacheControl
        let status = response.response.statusCode
        // `must-understand` stands for `no-store` when the cache knows the status's rules (RFC 9111 §5.2.2.3).
        let understood = directives.contains("must-understand") && heuristicallyCacheableStatuses.contains(status)
        guard !requestDirectives.contains("no-store"), !directives.contains("no-store") || understood, (200...599).contains(status),
            status != 206, status != 304, !directives.contains("must-understand") || understood
        else { return false }
        let explicit =
            directives.contains("max-age") || response.response.headers["Expires"] != nil || directives.contains("public")
            || directives.contains("private")
        guard explicit || heuristicallyCacheableStatuses.contains(status) else { return false }
        // Explicitly fresh for no time, it still serves a request's `max-stale` or `stale-if-error`.
        return directives.contains("max-age") || response.response.headers["Expires"] != nil || response.freshnessLifetime > 0
            || response.hasValidator || directives.contains("stale-if-error")
    }
}
