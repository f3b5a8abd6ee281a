import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How arrays are written in a query string or form body.
public enum ArrayEncoding: Sendable, Hashable {
    /// `ids[]=1&ids[]=2` (the default; understood by Rails, PHP and most frameworks).
    case brackets
    /// `ids=1&ids=2`: the key repeated without brackets.
    case noBrackets
    /// `ids[0]=1&ids[1]=2`: the index in brackets.
    case indexInBrackets
}

/// How booleans are written in a query string or form body.
public enum BoolEncoding: Sendable, Hashable {
    /// `true` and `false` (the default).
    case literal
    /// `1` and `0`.
    case numeric
}

extension URLRequest {
    /// Sets `Content-Type` unless the request already has one.
    mutating func setContentTypeIfMissing(_ contentType: String) {
        if value(forHTTPHeaderField: "Content-Type") == nil {
            setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
    }
}
