import Foundation

/// Which header values and query parameter values to hide when a request or response is written
/// out, by ``NetworkLogger`` and `URLRequest.cURLDescription(redacting:)` (both hide ``default`` unless told otherwise).
///
/// Names match case-insensitively; a query name also matches with a `[…]` suffix (`token[]`).
/// A hidden value is written as `<redacted>`. Bodies are never redacted.
public struct Redaction: Sendable, Equatable {
    /// The header names whose values are hidden.
    public var headers: Set<String>
    /// The query parameter names whose values are hidden.
    public var queryItems: Set<String>

    /// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    @usableFromInline static let sensitiveHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]
    /// `access_token`, `api_key`, `apikey`, `client_secret`, `password` and `token`.
    @usableFromInline static let sensitiveQueryItems: Set<String> = [
        "access_token", "api_key", "apikey", "client_secret", "password", "token",
    ]

    /// Hides `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`, and the query parameters
    /// `access_token`, `api_key`, `apikey`, `client_secret`, `password` and `token`.
    public static let `default` = Redaction()
    /// Hides nothing.
    public static let disabled = Redaction(headers: [], queryItems: [])

    /// Creates a redaction.
    /// - Parameters:
    ///   - headers: The header names whose values are hidden; those of ``default`` by default.
    ///   - queryItems: The query parameter names whose values are hidden; those of ``default`` by default.
    public init(headers: Set<String> = Redaction.sensitiveHeaders, queryItems: Set<String> = Redaction.sensitiveQueryItems) {
        self.headers = headers
        self.queryItems = queryItems
    }

    /// What replaces a hidden value.
    static let placeholder = "<redacted>"

    /// `value`, or the placeholder when the header `name` is redacted.
    func value(_ value: String, forHeader name: String) -> String {
        headers.contains { $0.caseInsensitiveEquals(name) } ? Self.placeholder : value
    }

    /// The URL as text with redacted query values replaced; everything else as `absoluteString` has it.
    /// The query is cut on bytes (`?`, `#`, `&`, `=`), never on Characters.
    func string(for url: URL) -> String {
        let text = url.absoluteString
        guard !queryItems.isEmpty else { return text }
        let bytes = text.utf8
        let fragmentStart = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        guard let questionMark = bytes[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) else { return text }
        let queryStart = bytes.index(after: questionMark)
        let pairs = bytes[queryStart..<fragmentStart].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), isRedacted(queryName: Substring(pair[..<equals])) else {
                return String(Substring(pair))
            }
            return Substring(pair[..<equals]) + "=" + Self.placeholder
        }
        return text[..<queryStart] + pairs.joined(separator: "&") + text[fragmentStart...]
    }

    /// Whether the percent-encoded query name `encoded` is one to hide: its decoded text up to the
    /// first `[` byte, so a `[` followed by a combining mark still starts the suffix.
    private func isRedacted(queryName encoded: Substring) -> Bool {
        let decoded = String(encoded).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(encoded)
        let bytes = decoded.utf8
        let name = bytes.firstIndex(of: UInt8(ascii: "[")).map { String(Substring(bytes[..<$0])) } ?? decoded
        return queryItems.contains { $0.caseInsensitiveEquals(name) }
    }
}
