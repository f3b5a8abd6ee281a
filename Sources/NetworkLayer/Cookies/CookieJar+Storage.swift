import Foundation

extension CookieJar {
    /// RFC 6265 §5.3: stores `parsed`, received from `url` at `date`, in `storage`, or drops it.
    func insert(_ parsed: SetCookieParser.Parsed, from url: URL, at date: Date, into storage: inout Storage) {
        guard let host = Self.host(of: url) else { return }
        let isSecureRequest = url.scheme?.lowercased() == "https"
        // RFC 6265bis §5.7: a Secure cookie is not set from an insecure origin.
        if parsed.isSecure, !isSecureRequest { return }
        var domain = host
        var isHostOnly = true
        if let attribute = parsed.domain {
            guard Self.domain(host, matches: attribute) else { return }
            // Public-suffix-naive but safe: a Domain with no dot (a TLD, `localhost`) or an IP address
            // may only name the host itself, and then the cookie is host-only.
            let isBroad = !attribute.contains(".") || Self.isIPAddress(attribute)
            if isBroad {
                guard attribute == host else { return }
            } else {
                domain = attribute
                isHostOnly = false
            }
        }
        let path = parsed.path ?? Self.defaultPath(of: url)
        let expires: Date? =
            if let maxAge = parsed.maxAge {
                maxAge <= 0 ? .distantPast : date.addingTimeInterval(TimeInterval(maxAge))
            } else {
                parsed.expires
            }
        let key = Cookie.Key(name: parsed.name, domain: domain, path: path)
        let existing = storage.cookies[key]
        // RFC 6265bis §5.7: an insecure origin cannot replace a Secure cookie.
        if let existing, existing.isSecure, !isSecureRequest { return }
        if let expires, expires <= date {
            storage.cookies[key] = nil
            return
        }
        storage.lastSequence += 1
        storage.cookies[key] = Cookie(
            name: parsed.name, value: parsed.value, domain: domain, isHostOnly: isHostOnly, path: path, expires: expires,
            isSecure: parsed.isSecure, isHTTPOnly: parsed.isHTTPOnly, sameSite: parsed.sameSite, created: existing?.created ?? date,
            sequence: existing?.sequence ?? storage.lastSequence)
    }

    /// Drops expired cookies, then the oldest of a domain over ``Limits/maximumCookiesPerDomain``, then
    /// the oldest over ``Limits/maximumCookies``.
    func evict(at date: Date, from storage: inout Storage) {
        var store = storage.cookies
        defer { storage.cookies = store }
        store = store.filter { !$0.value.isExpired(at: date) }
        let perDomain = max(limits.maximumCookiesPerDomain, 0)
        for (_, cookies) in Dictionary(grouping: store.values, by: \.domain) where cookies.count > perDomain {
            for cookie in cookies.sorted(by: Self.isOlder).prefix(cookies.count - perDomain) {
                store[cookie.key] = nil
            }
        }
        let total = max(limits.maximumCookies, 0)
        guard store.count > total else { return }
        for cookie in store.values.sorted(by: Self.isOlder).prefix(store.count - total) {
            store[cookie.key] = nil
        }
    }
}

extension CookieJar {
    /// The jar's cookies, and the order number of the last one stored.
    struct Storage: Sendable {
        var cookies: [Cookie.Key: Cookie] = [:]
        var lastSequence = 0
    }

    /// Whether `lhs` was stored before `rhs`.
    static func isOlder(_ lhs: Cookie, _ rhs: Cookie) -> Bool {
        lhs.created != rhs.created ? lhs.created < rhs.created : lhs.sequence < rhs.sequence
    }
}
