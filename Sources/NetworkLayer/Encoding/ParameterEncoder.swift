import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes ``Parameters`` into a `URLRequest`: into its query, or as its body.
///
/// Deprecated: ``Endpoint`` never used it, so an encoder of your own could not be plugged in. An
/// endpoint sets its query and form style with ``Endpoint/urlParameterEncoder`` and
/// ``Endpoint/formParameterEncoder``, and sends another format with
/// ``HTTPTask/requestData(_:contentType:)``; each encoder's `encode(_:into:)` still works on its own.
@available(
    *, deprecated,
    message:
        "Endpoint never used it: an endpoint sets its query and form style with urlParameterEncoder and formParameterEncoder, and sends another format with HTTPTask.requestData(_:contentType:)"
)
public protocol ParameterEncoder: Sendable {
    /// Returns `request` with `parameters` encoded into it.
    /// - Throws: ``APIError/encodingFailed(_:)`` naming the first key whose value cannot be encoded,
    ///   or ``APIError/invalidURL(_:)`` when the request has no URL to add a query to.
    func encode(_ parameters: Parameters, into request: URLRequest) throws(APIError) -> URLRequest
}

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
