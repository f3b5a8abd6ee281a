import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A received HTTP response: status, headers and the whole body, undecoded.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code, for example `200`.
    public let statusCode: Int
    /// The response headers, with case-insensitive lookup.
    public let headers: HTTPHeaders
    /// The body bytes as received (after any `Content-Encoding` was undone by the transport).
    public let body: Data
    /// The URL the response came from, after any redirects.
    public let url: URL?

    /// Creates a response; mainly for tests and stubs.
    public init(statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// Creates a response from Foundation's; headers are sorted by name, since Foundation keeps no order.
    public init(_ response: HTTPURLResponse, body: Data) {
        // Each name is lowercased once, for sorting and for finding names that differ only in case.
        var keyed: [(key: String, field: HTTPHeader)] = []
        keyed.reserveCapacity(response.allHeaderFields.count)
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            keyed.append((name.lowercased(), HTTPHeader(name: name, value: value as? String ?? "\(value)")))
        }
        keyed.sort { $0.key < $1.key }
        self.init(statusCode: response.statusCode, headers: HTTPHeaders(sortedByName: keyed), body: body, url: response.url)
    }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var text: String? {
        String(data: body, encoding: .utf8)
    }

    /// The start of the body as text (at most 512 bytes), for error messages; `nil` if empty or not text.
    var bodyPreview: String? {
        guard !body.isEmpty, let text = String(data: body.prefix(512), encoding: .utf8) else { return nil }
        let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return body.count > 512 ? flattened + "…" : flattened
    }

    /// The standard reason phrase for a status code, for example `Not Found` for 404.
    static func reasonPhrase(for statusCode: Int) -> String {
        let phrase = HTTPURLResponse.localizedString(forStatusCode: statusCode)
        return phrase.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
