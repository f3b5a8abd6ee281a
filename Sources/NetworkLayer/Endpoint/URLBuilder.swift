import Foundation

/// Joins a base URL, a path and an encoded query into a `URL`, validating every piece first
/// so that Foundation's setters (which trap on invalid input) only ever see valid strings.
enum URLBuilder {
    /// `base` + `/` + `path` (exactly one slash between them) + `query` after any query `base` has.
    /// - Parameters:
    ///   - base: An absolute URL with a scheme and a host; it may carry a path, a query and a fragment.
    ///   - path: An unescaped path; bytes a path cannot carry raw (space, `%`, `?`, `#`, non-ASCII) are escaped.
    ///   - query: An already percent-encoded query, as UTF-8 bytes, or empty.
    static func url(base: String, path: String, query: [UInt8]) throws(APIError) -> URL {
        let escapedPath = PercentEncoding.escapedPath(path)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let url = joinedURL(base: base, escapedPath: escapedPath, query: query) {
            return url
        }
        // Escaped, the path is ASCII: its leading slashes are dropped as bytes, without Characters.
        let trimmedPath = escapedPath.utf8.drop { $0 == UInt8(ascii: "/") }
        return try componentsURL(base: base, path: path, escapedPath: trimmedPath, query: String(decoding: query, as: UTF8.self))
    }

    /// `base` itself when it is absolute (see ``isRelative(_:)``), else `base` resolved against `baseURL`:
    /// the base URL's path, then `base`'s path with exactly one `/` between them, then the base
    /// URL's query followed by any query `base` carries, then the base URL's fragment.
    /// - Throws: ``APIError/invalidURL(_:)`` with `base` when `base` is relative and there is no `baseURL`.
    static func absoluteBase(_ base: String, against baseURL: URL?) throws(APIError) -> String {
        guard isRelative(base) else { return base }
        guard let baseURL else { throw .invalidURL(base) }
        let root = baseURL.absoluteString
        return withUTF8(root) { root in
            withUTF8(base) { base in
                resolvedText(root: root, relative: base)
            }
        }
    }

    /// The text of a relative base resolved against a base URL's; see ``absoluteBase(_:against:)``.
    private static func resolvedText(root: UnsafeBufferPointer<UInt8>, relative: UnsafeBufferPointer<UInt8>) -> String {
        let root = Parts(root)
        let relative = Parts(relative)
        var pathStart = relative.prefix.startIndex
        while pathStart < relative.prefix.endIndex, relative.prefix[pathStart] == UInt8(ascii: "/") { pathStart += 1 }
        let path = UnsafeBufferPointer(rebasing: relative.prefix[pathStart...])
        var prefix = root.prefix
        if !path.isEmpty {
            while let last = prefix.last, last == UInt8(ascii: "/") { prefix = UnsafeBufferPointer(rebasing: prefix.dropLast()) }
        }
        // At most every byte of the two, a `/` and one of `?` or `&`.
        let capacity = root.count + relative.count + 2
        return text(capacity: capacity) { text in
            text.write(prefix)
            if !path.isEmpty {
                text.write(UInt8(ascii: "/"))
                text.write(path)
            }
            if let rootQuery = root.query {
                text.write(UInt8(ascii: "?"))
                text.write(rootQuery)
            }
            if let relativeQuery = relative.query, !relativeQuery.isEmpty {
                if let rootQuery = root.query {
                    if !rootQuery.isEmpty { text.write(UInt8(ascii: "&")) }
                } else {
                    text.write(UInt8(ascii: "?"))
                }
                text.write(relativeQuery)
            }
            text.write(root.fragment)
        }
    }

    /// Whether `text` is a relative path reference (RFC 3986, section 4.2): no `:` before its first
    /// `/`, `?` or `#`, as in `""`, `/v2` or `v2/items`. Anything else, such as `https://h.test`,
    /// `localhost:8080`, `ht tp://x` or `//h.test` (a host without a scheme), is meant as an
    /// absolute URL, valid or not.
    static func isRelative(_ text: String) -> Bool {
        withUTF8(text) { bytes in
            if bytes.count >= 2, bytes[0] == UInt8(ascii: "/"), bytes[1] == UInt8(ascii: "/") { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: ":"): return false
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
                default: continue
                }
            }
            return true
        }
    }

    /// A URL's text split into what comes before its query, its query (without the `?`, `nil` when
    /// it has none) and its fragment (with the `#`, empty when it has none).
    private struct Parts {
        var prefix: UnsafeBufferPointer<UInt8>
        var query: UnsafeBufferPointer<UInt8>?
        var fragment: UnsafeBufferPointer<UInt8>
        /// The whole text's byte count.
        var count: Int

        init(_ text: UnsafeBufferPointer<UInt8>) {
            count = text.count
            var fragmentStart = 0
            while fragmentStart < text.count, text[fragmentStart] != UInt8(ascii: "#") { fragmentStart += 1 }
            var queryStart = 0
            while queryStart < fragmentStart, text[queryStart] != UInt8(ascii: "?") { queryStart += 1 }
            prefix = UnsafeBufferPointer(rebasing: text[..<queryStart])
            query = queryStart < fragmentStart ? UnsafeBufferPointer(rebasing: text[(queryStart + 1)..<fragmentStart]) : nil
            fragment = UnsafeBufferPointer(rebasing: text[fragmentStart...])
        }
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
