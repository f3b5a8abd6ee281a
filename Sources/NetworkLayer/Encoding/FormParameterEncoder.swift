import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes parameters as an `application/x-www-form-urlencoded` body.
///
/// The text is the same as ``URLParameterEncoder`` writes (sorted keys, `key[sub]=v`,
/// `%20` for space). `Content-Type` is set only if the request has none.
public struct FormParameterEncoder: Hashable, Sendable {
    /// The `Content-Type` set when the request has none.
    public static let contentType = "application/x-www-form-urlencoded; charset=utf-8"

    /// How arrays are written; `.brackets` (`key[]=v`) by default.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written; `.literal` (`true`/`false`) by default.
    public var boolEncoding: BoolEncoding

    /// Creates an encoder.
    /// - Parameters:
    ///   - arrayEncoding: How arrays are written; `.brackets` by default.
    ///   - boolEncoding: How booleans are written; `.literal` by default.
    public init(arrayEncoding: ArrayEncoding = .brackets, boolEncoding: BoolEncoding = .literal) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Returns `request` with `parameters` as its form body.
    public func encode(_ parameters: Parameters, into request: URLRequest) throws(APIError) -> URLRequest {
        var request = request
        request.httpBody = Data(try serializer.serialize(parameters))
        request.setContentTypeIfMissing(Self.contentType)
        return request
    }

    var serializer: QueryStringSerializer {
        QueryStringSerializer(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
    }
}
