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
        guard var components = URLComponents(string: base),
            let scheme = components.scheme, !scheme.isEmpty,
            let host = components.host, !host.isEmpty,
            (0...65535).contains(components.port ?? 0)
        else {
            throw .invalidURL(base)
        }
        let escapedPath = PercentEncoding.escapedPath(path).trimmingLeading("/")
        if !escapedPath.isEmpty {
            components.percentEncodedPath = components.percentEncodedPath.trimmingTrailing("/") + "/" + escapedPath
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
    fileprivate func trimmingLeading(_ character: Character) -> String {
        String(drop { $0 == character })
    }

    fileprivate func trimmingTrailing(_ character: Character) -> String {
        var result = Substring(self)
        while result.last == character { result.removeLast() }
        return String(result)
    }
}
