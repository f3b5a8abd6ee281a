import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes parameters into the URL's query string, after any query the URL already has, and into
/// `application/x-www-form-urlencoded` bodies (``BodyEncoding/formURLEncoded``): the same text.
///
/// Keys are sorted by their UTF-8 bytes, dictionaries nest as `key[sub]=v`, `nil` values are omitted, and every
/// byte outside `A-Z a-z 0-9 - . _ ~` is percent-encoded (space is `%20`, never `+`).
public struct URLParameterEncoder: Hashable, Sendable {
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

    /// The `Content-Type` of a form body, set when the request has none.
    static let formContentType = "application/x-www-form-urlencoded; charset=utf-8"

    /// Returns `request` with `parameters` appended to its URL's query.
    func encode(_ parameters: Parameters, into request: URLRequest) throws(APIError) -> URLRequest {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidURL(request.url?.absoluteString ?? "")
        }
        let query = try self.query(for: parameters)
        guard !query.isEmpty else { return request }
        components.percentEncodedQuery = URLBuilder.joinQuery(components.percentEncodedQuery, query)
        guard let encodedURL = components.url else { throw .invalidURL(url.absoluteString) }
        var request = request
        request.url = encodedURL
        return request
    }

    /// The percent-encoded query string for `parameters`, without a leading `?`.
    public func query(for parameters: Parameters) throws(APIError) -> String {
        try serializer.string(from: parameters)
    }

    /// Returns `request` with `parameters` as its form body.
    func encode(asForm parameters: Parameters, into request: URLRequest) throws(APIError) -> URLRequest {
        var request = request
        request.httpBody = Data(try serializer.serialize(parameters))
        request.setContentTypeIfMissing(Self.formContentType)
        return request
    }

    var serializer: QueryStringSerializer {
        QueryStringSerializer(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
    }
}
