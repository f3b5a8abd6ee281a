import Foundation

/// Joins a base URL, a path and an encoded query into a `URL`, validating every piece first
/// so that Foundation's setters (which trap on invalid input) only ever see valid strings.
enum URLBuilder {
    /// `base` + `/` + `path` (exactly one slash between them) + `query` after any query `base` has.
    /// - Parameters:
    ///   - base: An absolute URL with a scheme and a host; it may carry a path, a query and a fragment.
    ///   - path: An unescaped path; bytes a path cannot carry raw (space, `%`, `?`, `#`, non-ASCII) are escaped.
    ///   - query: An already percent-encoded query, or empty.
    static func url(base: String, path: String, query: String) throws(APIError) -> URL {
        // Escaped, the path is ASCII: its leading slashes are dropped as bytes, without Characters.
        let escapedPath = PercentEncoding.escapedPath(path).utf8.drop { $0 == UInt8(ascii: "/") }
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let url = joinedURL(base: base, escapedPath: escapedPath, query: query) {
            return url
        }
        return try componentsURL(base: base, path: path, escapedPath: escapedPath, query: query)
    }

    /// `base` itself when it is absolute (see ``isRelative(_:)``), else `base` resolved against `baseURL`:
    /// the base URL's path, then `base`'s path with exactly one `/` between them, then the base
    /// URL's query followed by any query `base` carries, then the base URL's fragment.
    /// - Throws: ``APIError/invalidURL(_:)`` with `base` when `base` is relative and there is no `baseURL`.
    static func absoluteBase(_ base: String, against baseURL: URL?) throws(APIError) -> String {
        guard isRelative(base) else { return base }
        guard let baseURL else { throw .invalidURL(base) }
        let root = baseURL.absoluteString
        let (rootPrefix, rootQuery, rootFragment) = split(root)
        let (relativePath, relativeQuery, _) = split(base)
        var text = String(rootPrefix)
        let path = relativePath.utf8.drop { $0 == UInt8(ascii: "/") }
        if !path.isEmpty {
            while text.utf8.last == UInt8(ascii: "/") { text.removeLast() }
            text += "/"
            text += Substring(path)
        }
        if let rootQuery {
            text += "?"
            text += rootQuery
        }
        if let relativeQuery, !relativeQuery.isEmpty {
            if let rootQuery {
                if !rootQuery.isEmpty { text += "&" }
            } else {
                text += "?"
            }
            text += relativeQuery
        }
        text += rootFragment
        return text
    }

    /// Whether `text` is a relative path reference (RFC 3986, section 4.2): no `:` before its first
    /// `/`, `?` or `#`, as in `""`, `/v2` or `v2/items`. Anything else, such as `https://h.test`,
    /// `localhost:8080`, `ht tp://x` or `//h.test` (a host without a scheme), is meant as an
    /// absolute URL, valid or not.
    static func isRelative(_ text: String) -> Bool {
        if text.utf8.starts(with: "//".utf8) { return false }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return false
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
            default: continue
            }
        }
        return true
    }

    /// `text` split into what comes before its query, its query (without the `?`, `nil` when it has
    /// none) and its fragment (with the `#`, empty when it has none).
    private static func split(_ text: String) -> (prefix: Substring, query: Substring?, fragment: Substring) {
        let utf8 = text.utf8
        let fragmentStart = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        guard let queryStart = utf8[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) else {
            return (text[..<fragmentStart], nil, text[fragmentStart...])
        }
        return (text[..<queryStart], text[utf8.index(after: queryStart)..<fragmentStart], text[fragmentStart...])
    }

    /// The fast path: the pieces joined as text and parsed once, strictly (no invalid character is
    /// encoded away). It returns `nil` whenever the result is not an absolute URL with a scheme, a
    /// host and a valid port, and ``componentsURL(base:path:escapedPath:query:)`` then decides, with
    /// the same rules as always: this path only ever returns the URL that one would.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    private static func joinedURL(base: String, escapedPath: Substring.UTF8View, query: String) -> URL? {
        // base = prefix [? baseQuery] [# fragment], split at the first `?` or `#`.
        let utf8 = base.utf8
        let queryStart =
            utf8.firstByteOffset { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }.map { utf8.index(utf8.startIndex, offsetBy: $0) }
            ?? utf8.endIndex
        var fragmentStart = queryStart
        if queryStart != utf8.endIndex, utf8[queryStart] == UInt8(ascii: "?") {
            fragmentStart = utf8[queryStart...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        }
        var text = String(base[..<queryStart])
        // Room for all of it at once: appended piece by piece, the text would grow several times.
        text.reserveCapacity(utf8.count + escapedPath.count + query.utf8.count + 2)
        if !escapedPath.isEmpty {
            while text.utf8.last == UInt8(ascii: "/") { text.removeLast() }
            text += "/"
            text += Substring(escapedPath)
        }
        let baseQuery = queryStart < fragmentStart ? base[base.index(after: queryStart)..<fragmentStart] : nil
        if let baseQuery, !baseQuery.isEmpty {
            text += "?"
            text += baseQuery
            if !query.isEmpty {
                text += "&"
                text += query
            }
        } else if !query.isEmpty {
            text += "?"
            text += query
        } else if baseQuery != nil {
            text += "?"
        }
        text += base[fragmentStart...]
        guard let url = URL(string: text, encodingInvalidCharacters: false),
            url.scheme?.isEmpty == false,
            url.host(percentEncoded: true)?.isEmpty == false,
            (0...65535).contains(url.port ?? 0)
        else { return nil }
        return url
    }

    /// The reference path through `URLComponents`, which also names the error.
    private static func componentsURL(base: String, path: String, escapedPath: Substring.UTF8View, query: String) throws(APIError) -> URL {
        guard var components = URLComponents(string: base),
            let scheme = components.scheme, !scheme.isEmpty,
            let host = components.host, !host.isEmpty,
            (0...65535).contains(components.port ?? 0)
        else {
            throw .invalidURL(base)
        }
        if !escapedPath.isEmpty {
            components.percentEncodedPath = components.percentEncodedPath.trimmingTrailing("/") + "/" + Substring(escapedPath)
        }
        if !query.isEmpty {
            components.percentEncodedQuery = joinQuery(components.percentEncodedQuery, query)
        }
        guard let url = components.url else {
            throw .invalidURL(base + path)
        }
        return url
    }

    /// `existing&added`, or just `added` when there is no existing query.
    static func joinQuery(_ existing: String?, _ added: String) -> String {
        guard let existing, !existing.isEmpty else { return added }
        return "\(existing)&\(added)"
    }
}

extension String {
    fileprivate func trimmingTrailing(_ character: Character) -> String {
        var result = Substring(self)
        while result.last == character { result.removeLast() }
        return String(result)
    }
}
