/// An HTTP request method, open to any token a server understands.
///
/// The common methods are static members (`.get`, `.post`, …); anything else is
/// `HTTPMethod(rawValue: "PURGE")`.
///
/// Methods are case-sensitive (RFC 9110), and a token is sent as written, with one exception that
/// Foundation imposes: `URLRequest` uppercases `get`, `head`, `post`, `put`, `delete` and `connect`
/// in any mix of case (on Linux; NetworkLayer does the same on every platform), while `patch` and
/// custom tokens go as written. ``normalized`` is that token, and every rule about methods here
/// (whether a body is allowed, which methods ``RetryPolicy`` retries) looks at it, so
/// `HTTPMethod(rawValue: "get")` is refused a body like `GET`. Two methods are equal when their
/// tokens are the same bytes.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable {
    /// The method token as given, for example `"GET"`; see ``normalized`` for what is sent.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether the two tokens are the same bytes (methods are case-sensitive, and compared as bytes,
    /// not as Unicode text).
    public static func == (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool {
        lhs.rawValue.utf8.bytesEqual(rhs.rawValue.utf8)
    }

    /// Hashes the token's bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue.utf8.count)
        for byte in rawValue.utf8 { hasher.combine(byte) }
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

    /// `CONNECT`: open a tunnel.
    static let connect = HTTPMethod(rawValue: "CONNECT")

    /// The methods `URLRequest` uppercases, matched in any mix of ASCII case.
    private static let uppercasedByFoundation: [HTTPMethod] = [.get, .head, .post, .put, .delete, .connect]

    /// The token as it goes on the wire: `GET`, `HEAD`, `POST`, `PUT`, `DELETE` or `CONNECT` for
    /// those names in any mix of ASCII case (as `URLRequest` uppercases them), else the token as given.
    public var normalized: HTTPMethod {
        Self.uppercasedByFoundation.first { $0.rawValue.caseInsensitiveEquals(rawValue) } ?? self
    }

    /// Whether a request with this method may carry a body: `false` for `GET` and `HEAD` in any
    /// case, since `get` and `head` are sent as `GET` and `HEAD` (see ``normalized``).
    var allowsRequestBody: Bool {
        let sent = normalized
        return sent != .get && sent != .head
    }

    /// Whether the method is a valid RFC 9110 token (letters, digits and ``!#$%&'*+-.^_`|~``).
    var isValidToken: Bool {
        !rawValue.isEmpty && rawValue.utf8.allBytes(HTTPHeaders.isTokenByte)
    }
}

extension HTTPMethod: CustomStringConvertible {
    /// The method token, for example `"GET"`.
    public var description: String { rawValue }
}
