/// An HTTP request method, open to any token a server understands.
///
/// The common methods are static members (`.get`, `.post`, …); anything else is
/// `HTTPMethod(rawValue: "PURGE")`. The raw value is sent verbatim.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable {
    /// The method token as it goes on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token; it is sent exactly as given (methods are case-sensitive).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`: read a resource; carries no body.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`: create a resource or submit data.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: partially update a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`: like `GET` without the response body; carries no body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`: ask which methods and headers a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether a request with this method may carry a body (`false` for `GET` and `HEAD`).
    public var allowsRequestBody: Bool {
        self != .get && self != .head
    }

    /// Whether the method is a valid RFC 9110 token (letters, digits and ``!#$%&'*+-.^_`|~``).
    var isValidToken: Bool {
        !rawValue.isEmpty && rawValue.utf8.allSatisfy(HTTPHeaders.isTokenByte)
    }
}

extension HTTPMethod: CustomStringConvertible {
    /// The method token, for example `"GET"`.
    public var description: String { rawValue }
}
