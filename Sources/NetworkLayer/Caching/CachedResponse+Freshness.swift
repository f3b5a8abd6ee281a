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
        let ageValue = headers["Age"].flatMap { CacheControl.deltaSeconds($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, TimeInterval(ageValue) + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
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
            if Self.normalized(request.value(forHTTPHeaderField: name)) != Self.normalized(varyingRequestHeaders[name]) { return false }
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
    /// (§4.1 allows normalising): ` 1, 2 ` is `1,2`.
    private static func normalized(_ value: String?) -> String? {
        value.map { value in
            value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
        }
    }

    /// Whether a private cache may store `response` to `request` (RFC 9111 §3): not `no-store`
    /// (either side), a final status it understands, not a `206` nor a `304`, not to a request with
    /// `Authorization` unless the response says `public`, `s-maxage` or `must-revalidate` (§3.5), and
    /// either explicitly fresh or of a heuristically cacheable status; and worth keeping: fresh for a
    /// while, revalidatable, or allowed to be served stale on errors.
    static func isStorable(_ response: CachedResponse, for request: URLRequest, requestDirectives: CacheControl) -> Bool {
        let directives = response.cacheControl
        let status = response.response.statusCode
        guard !requestDirectives.contains("no-store"), !directives.contains("no-store"), (200...599).contains(status),
            status != 206, status != 304
        else { return false }
        if request.value(forHTTPHeaderField: "Authorization") != nil,
            !(directives.contains("public") || directives.contains("s-maxage") || directives.contains("must-revalidate"))
        {
            return false
        }
        let explicit =
            directives.contains("max-age") || response.response.headers["Expires"] != nil || directives.contains("public")
            || directives.contains("private")
        guard explicit || heuristicallyCacheableStatuses.contains(status) else { return false }
        return response.freshnessLifetime > 0 || response.hasValidator || directives.contains("stale-if-error")
    }
}
