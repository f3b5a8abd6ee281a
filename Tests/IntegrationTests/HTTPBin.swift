import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local httpbin that `scripts/test` starts, found through `NETWORKLAYER_HTTPBIN_URL`.
///
/// Without the variable the integration suites are skipped with a note saying so; with `CI=true`
/// they run anyway and fail on ``base()``, so a CI run can never pass without the server.
enum HTTPBin {
    /// The environment variable that holds the server's base URL, such as `http://127.0.0.1:18080`.
    static let variable = "NETWORKLAYER_HTTPBIN_URL"

    /// The base URL from the environment, if set.
    static let url: String? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the integration tests must run: on CI a missing server is a failure, not a skip.
    static let isRequired = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The server's base URL, or a failure naming the variable to set.
    static func base() throws -> String {
        try #require(url, "httpbin is not running: set \(variable) (scripts/test starts httpbin and sets it)")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only when httpbin is available, or always on CI (where a missing server then fails).
    static var httpbin: Self {
        .enabled(
            if: HTTPBin.url != nil || HTTPBin.isRequired,
            "httpbin is not running: set \(HTTPBin.variable), or run scripts/test, which starts it"
        )
    }
}

/// An endpoint against httpbin whose every property the test sets.
struct HTTPBinEndpoint: Endpoint {
    var base: String
    var path: String
    var method: HTTPMethod = .get
    var headers: HTTPHeaders = [:]
    var task: HTTPTask = .request
    var timeout: TimeInterval?
    var urlParameterEncoder = URLParameterEncoder()
    var options: CallOptions { CallOptions(timeout: timeout) }

    /// A GET of `path` on `base`, for building endpoints where `HTTPBin.base()` cannot be called.
    init(base: String, path: String) {
        self.base = base
        self.path = path
    }

    /// An endpoint on the running httpbin.
    init(
        _ path: String,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        task: HTTPTask = .request,
        timeout: TimeInterval? = nil
    ) throws {
        self.base = try HTTPBin.base()
        self.path = path
        self.method = method
        self.headers = headers
        self.task = task
        self.timeout = timeout
    }
}

/// What httpbin's `/anything`, `/get`, `/post` and friends echo back.
struct Echo: Decodable, Sendable {
    /// The query parameters; a repeated key arrives as an array, hence `JSONValue`.
    let args: [String: JSONValue]
    /// The request headers as httpbin saw them.
    let headers: [String: String]
    /// The raw body as text.
    let data: String?
    /// The form fields of a url-encoded body.
    let form: [String: JSONValue]?
    /// The body parsed as JSON, when it was JSON.
    let json: JSONValue?
    /// The request method.
    let method: String?
    /// The full URL httpbin saw.
    let url: String

    /// The value of `name`'s header, matched case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Any JSON value, for comparing echoed bodies without a model per test.
enum JSONValue: Decodable, Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Result {
    /// The failure, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
