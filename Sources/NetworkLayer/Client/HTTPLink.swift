import Foundation

/// One link of a response's `Link` header (RFC 8288, Web Linking): where it points and how it relates
/// to the response, for example the `next` page of a paginated list.
///
/// ```swift
/// // Link: <https://api.example.com/notes?page=2>; rel="next", <https://api.example.com/notes?page=9>; rel="last"
/// let next = response.link("next")   // https://api.example.com/notes?page=2
/// ```
struct HTTPLink: Sendable, Equatable {
    /// Where the link points, resolved against the URL the response came from when it is relative.
    var target: URL
    /// The relation types of its `rel` parameter, lowercased (they compare case-insensitively), for
    /// example `["next"]`, or `["prev", "previous"]` for `rel="prev previous"`; empty when it has none.
    var relations: [String]
    /// Its parameters by lowercased name, values unquoted (`""` for a parameter without a value); the
    /// first occurrence of a name wins, as RFC 8288 says of `rel`.
    var parameters: [String: String]

    /// Creates a link; ``HTTPResponse/links`` makes them from the `Link` headers.
    init(target: URL, relations: [String], parameters: [String: String] = [:]) {
        self.target = target
        self.relations = relations
        self.parameters = parameters
    }

    /// The links of a `Link` field value, in order, their targets resolved against `base`.
    ///
    /// It reads the text once, byte by byte: a `,` or `;` inside `<…>` or a quoted string belongs to
    /// it, and a link it cannot read (no `<`, no closing `>`, a target that is not a URI reference) is
    /// skipped up to the next link, never a crash, and never more than one pass over the text.
    static func parse(_ value: String, relativeTo base: URL? = nil) -> [HTTPLink] {
        var parser = LinkParser(Array(value.utf8))
        var links: [HTTPLink] = []
        while let (reference, parameters) = parser.next() {
            // An empty reference is the base itself (RFC 3986 §5.2.2), which `URL(string:)` refuses.
            let resolved = reference.isEmpty ? base : URL(string: reference, relativeTo: base)?.absoluteURL
            guard let target = resolved else { continue }
            let relations = parameters["rel"].map { $0.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
            links.append(HTTPLink(target: target, relations: relations, parameters: parameters))
        }
        return links
    }
}

extension HTTPResponse {
    /// The links of every `Link` header, in order, relative targets resolved against ``url``.
    var links: [HTTPLink] {
        headers.filter { $0.name.lowercased() == "link" }.flatMap { HTTPLink.parse($0.value, relativeTo: url) }
    }

    /// The target of the first link whose relations include `relation` (compared case-insensitively),
    /// for example `response.link("next")` for the next page; `nil` when there is none.
    public func link(_ relation: String) -> URL? {
        let relation = relation.lowercased()
        return links.first { $0.relations.contains(relation) }?.target
    }
}

/// Reads `link-value`s (RFC 8288 §3) from the bytes of a field value, one at a time, in one pass.
private struct LinkParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next readable link: its URI reference and its parameters; `nil` at the end.
    mutating func next() -> (String, [String: String])? {
        while true {
            skip { $0 == .space || $0 == .tab || $0 == .comma }
            guard index < bytes.count else { return nil }
            guard bytes[index] == .lessThan, let close = bytes[(index + 1)...].firstIndex(of: .greaterThan) else {
                // Not a link: skip it, and give up when no `>` is left anywhere.
                if bytes[index] == .lessThan { return nil }
                skipToNextLink()
                continue
            }
            let reference = String(decoding: bytes[(index + 1)..<close], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            index = close + 1
            guard let parameters = readParameters() else {
                skipToNextLink()
                continue
            }
            return (reference, parameters)
        }
    }

    /// `*( OWS ";" OWS link-param )` up to the `,` or the end; `nil` when something else is in the way.
    private mutating func readParameters() -> [String: String]? {
        var parameters: [String: String] = [:]
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] != .comma else { return parameters }
            guard bytes[index] == .semicolon else { return nil }
            index += 1
            skipWhitespace()
            let name = readToken().lowercased()
            skipWhitespace()
            var value = ""
            if index < bytes.count, bytes[index] == .equals {
                index += 1
                skipWhitespace()
                value = index < bytes.count && bytes[index] == .quote ? readQuotedString() : readToken()
            }
            if !name.isEmpty, parameters[name] == nil { parameters[name] = value }
        }
    }

    /// A run of token characters (anything but whitespace, separators and controls), as text.
    private mutating func readToken() -> String {
        let start = index
        skip { byte in byte > 0x20 && byte != 0x7F && !Self.separators.contains(byte) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted string from its opening quote, unescaped; it runs to the end when never closed.
    private mutating func readQuotedString() -> String {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == .quote { break }
            if byte == .backslash, index < bytes.count {
                value.append(bytes[index])
                index += 1
            } else {
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Moves past the next `,` outside `<…>` and quoted strings, or to the end.
    private mutating func skipToNextLink() {
        var inQuotes = false
        var inBrackets = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == .backslash {
                    index += 1
                } else if byte == .quote {
                    inQuotes = false
                }
            } else if inBrackets {
                if byte == .greaterThan { inBrackets = false }
            } else if byte == .quote {
                inQuotes = true
            } else if byte == .lessThan {
                inBrackets = true
            } else if byte == .comma {
                return
            }
        }
    }

    private mutating func skipWhitespace() {
        skip { $0 == .space || $0 == .tab }
    }

    private mutating func skip(while matches: (UInt8) -> Bool) {
        while index < bytes.count, matches(bytes[index]) { index += 1 }
    }

    /// The separators that end a token (RFC 9110 §5.6.2's delimiters).
    private static let separators: Set<UInt8> = Set(#"(),/:;<=>?@[\]{}""#.utf8)
}

extension UInt8 {
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")
}
