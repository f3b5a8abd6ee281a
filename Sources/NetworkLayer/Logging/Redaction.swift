import Foundation

/// Which header values and query parameter values to hide when a request or response is written
/// out, by ``NetworkLogger`` and `URLRequest.cURLDescription(redacting:)` (both hide ``default`` unless told otherwise).
///
/// Names match case-insensitively; a query name also matches with a `[…]` suffix (`token[]`). A
/// URL's userinfo (`user:password@`, which goes out as `Authorization`) is hidden whenever
/// `Authorization` is. A hidden value is written as `<redacted>`. Bodies are never redacted.
public struct Redaction: Sendable, Equatable {
    /// The header names whose values are hidden.
    public var headers: Set<String>
    /// The query parameter names whose values are hidden.
    public var queryItems: Set<String>

    /// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    @usableFromInline static let sensitiveHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]
    /// `access_token`, `api_key`, `apikey`, `client_secret`, `password`, `token`, `refresh_token` and
    /// `id_token`, and the signatures and keys of signed URLs: OpenTelemetry's list (`AWSAccessKeyId`,
    /// `Signature`, `sig`, `X-Goog-Signature`) and AWS Signature Version 4's (`X-Amz-Signature`,
    /// `X-Amz-Credential`, `X-Amz-Security-Token`).
    @usableFromInline static let sensitiveQueryItems: Set<String> = [
        "access_token", "api_key", "apikey", "client_secret", "password", "token",
        "AWSAccessKeyId", "Signature", "sig", "X-Goog-Signature", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
        "refresh_token", "id_token",
    ]

    /// Hides `Authorization` (and so a URL's userinfo), `Proxy-Authorization`, `Cookie` and
    /// `Set-Cookie`, and the query parameters `access_token`, `api_key`, `apikey`, `client_secret`,
    /// `password`, `token`, `refresh_token`, `id_token`, and those of signed URLs: `AWSAccessKeyId`,
    /// `Signature`, `sig`, `X-Goog-Signature`, `X-Amz-Signature`, `X-Amz-Credential` and
    /// `X-Amz-Security-Token`.
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

    /// The URL as text with its userinfo and redacted query values replaced by `placeholder`;
    /// everything else as `absoluteString` has it. The text is cut on bytes (`@`, `?`, `#`, `&`, `=`),
    /// never on Characters.
    func string(for url: URL, placeholder: String = Redaction.placeholder) -> String {
        var text = url.absoluteString
        // Whatever Foundation makes of the userinfo (it reads none in `%FF@`): any `@` in the authority.
        if headers.contains(where: { $0.caseInsensitiveEquals("Authorization") }) {
            text = Self.replacingUserinfo(of: text, with: placeholder == Self.placeholder ? placeholder : "\(placeholder):\(placeholder)")
        }
        guard !queryItems.isEmpty else { return text }
        let bytes = text.utf8
        let fragmentStart = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        guard let questionMark = bytes[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) else { return text }
        let queryStart = bytes.index(after: questionMark)
        let pairs = bytes[queryStart..<fragmentStart].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), isRedacted(queryName: Substring(pair[..<equals])) else {
                return String(Substring(pair))
            }
            return Substring(pair[..<equals]) + "=" + placeholder
        }
        return text[..<queryStart] + pairs.joined(separator: "&") + text[fragmentStart...]
    }

    /// `text` (a URL's absolute string) with the userinfo of its authority, the bytes between `//` and
    /// the last `@` before the path, replaced by `replacement`.
    private static func replacingUserinfo(of text: String, with replacement: String) -> String {
        let bytes = text.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[colon...].starts(with: "://".utf8)
        else { return text }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return text }
        return text[..<authorityStart] + replacement + text[at...]
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
