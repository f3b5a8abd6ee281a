import Foundation

extension CookieJar {
    /// A cookie the jar holds, as RFC 6265 §5.3 stores it.
    public struct Cookie: Sendable, Hashable {
        /// The cookie's `SameSite` attribute, stored for you to read; the jar sends cookies whatever it is,
        /// since a client has no "site" of its own.
        public enum SameSite: String, Sendable, Hashable {
            /// `SameSite=Strict`.
            case strict
            /// `SameSite=Lax`.
            case lax
            /// `SameSite=None`.
            case none
        }

        /// The cookie's name, for example `session`.
        public let name: String
        /// The cookie's value, as the server sent it.
        public let value: String
        /// The host (host-only) or domain the cookie is sent to, lowercased, without a leading dot.
        public let domain: String
        /// Whether the cookie goes to ``domain`` exactly, not to its subdomains: it had no `Domain` attribute.
        let isHostOnly: Bool
        /// The path the cookie is sent under: its `Path`, else the default path of the URL that set it.
        public let path: String
        /// When the cookie expires, from `Max-Age` (which wins) or `Expires`; `nil` for a session cookie.
        public let expires: Date?
        /// Whether the cookie goes over `https` only (`Secure`).
        public let isSecure: Bool
        /// Whether the server marked it `HttpOnly`; kept, it changes nothing for a client that has no scripts.
        public let isHTTPOnly: Bool
        /// The `SameSite` attribute, `nil` when absent or not one of the three.
        public let sameSite: SameSite?
        /// When the jar first stored a cookie of this name, domain and path; orders cookies of equal paths.
        let created: Date
        /// The order the jar first stored it in, which orders cookies created at the same instant.
        let sequence: Int

        /// Whether the cookie has expired at `date`.
        func isExpired(at date: Date) -> Bool {
            expires.map { $0 <= date } ?? false
        }

        /// Whether the jar sends the cookie with a request to `url`: the host and path match and,
        /// for a `Secure` cookie, the scheme is `https`.
        func matches(_ url: URL) -> Bool {
            guard let host = CookieJar.host(of: url) else { return false }
            if isSecure, url.scheme?.lowercased() != "https" { return false }
            let hostMatches = isHostOnly ? host == domain : CookieJar.domain(host, matches: domain)
            return hostMatches && CookieJar.path(CookieJar.path(of: url), matches: path)
        }

        /// The cookie's identity: a new cookie of the same name, domain and path replaces it.
        var key: Key { Key(name: name, domain: domain, path: path) }

        struct Key: Hashable {
            let name: String
            let domain: String
            let path: String
        }

        init(
            name: String, value: String, domain: String, isHostOnly: Bool, path: String, expires: Date?, isSecure: Bool,
            isHTTPOnly: Bool, sameSite: SameSite?, created: Date, sequence: Int
        ) {
            self.name = name
            self.value = value
            self.domain = domain
            self.isHostOnly = isHostOnly
            self.path = path
            self.expires = expires
            self.isSecure = isSecure
            self.isHTTPOnly = isHTTPOnly
            self.sameSite = sameSite
            self.created = created
            self.sequence = sequence
        }
    }
}

extension CookieJar {
    /// The request host, lowercased, without the brackets of an IPv6 literal; `nil` when there is none.
    static func host(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// Whether `host` is an IP address, which only ever matches itself.
    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":")
            || (host.split(separator: ".", omittingEmptySubsequences: false).count == 4
                && host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) })
    }

    /// RFC 6265 §5.1.3: `host` is `domain`, or ends with `.domain` and is not an IP address.
    static func domain(_ host: String, matches domain: String) -> Bool {
        host == domain || (!isIPAddress(host) && host.utf8.reversed().starts(with: ("." + domain).utf8.reversed()))
    }

    /// The URL's path as sent (percent-encoded), `/` when empty.
    static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// RFC 6265 §5.1.4: the path a cookie without a `Path` gets, the URL's directory.
    static func defaultPath(of url: URL) -> String {
        let path = path(of: url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265 §5.1.4: `requestPath` is `cookiePath` or lies under it.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        guard requestPath.utf8.starts(with: cookiePath.utf8) else { return false }
        if requestPath.utf8.count == cookiePath.utf8.count || cookiePath.utf8.last == UInt8(ascii: "/") { return true }
        return requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }
}
