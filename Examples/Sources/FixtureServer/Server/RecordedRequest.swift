import Foundation

/// A request the fixture server received, as tests want to see it.
public struct RecordedRequest: Sendable, Equatable {
    /// The method, for example `POST`.
    public let method: String
    /// The percent-decoded path, for example `/3/movie/550/rating`.
    public let path: String
    /// The query parameters, percent-decoded; the last value wins for a repeated name.
    public let query: [String: String]
    /// The headers, with lowercased names.
    public let headers: [String: String]
    /// The body bytes.
    public let body: Data

    /// Creates a record.
    public init(method: String, path: String, query: [String: String], headers: [String: String], body: Data) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The value of the header `name`, whatever its case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// The requests a server received, in order, safe to read from any task.
actor RequestLog {
    private(set) var requests: [RecordedRequest] = []

    func append(_ request: RecordedRequest) {
        requests.append(request)
    }
}
