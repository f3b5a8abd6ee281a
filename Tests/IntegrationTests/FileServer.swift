import Foundation
import NetworkLayer
import Testing

/// The local file server (`scripts/fileserver.py`) that `scripts/test` starts, found through
/// `NETWORKLAYER_FILESERVER_URL`: large files, upload sinks and scripted streams.
///
/// Like ``HTTPBin``, its suites are skipped with a note when the variable is not set, and fail
/// on CI (`CI=true`) instead.
enum FileServer {
    /// The environment variable that holds the server's base URL.
    static let variable = "NETWORKLAYER_FILESERVER_URL"

    /// The base URL from the environment, if set.
    static let url: String? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }

    /// The server's base URL, or a failure naming the variable to set.
    static func base() throws -> String {
        try #require(url, "the file server is not running: set \(variable) (scripts/test starts it and sets it)")
    }

    /// An endpoint on the file server.
    static func endpoint(
        _ path: String,
        method: HTTPMethod = .get,
        query: Parameters? = nil,
        task: HTTPTask? = nil,
        timeout: TimeInterval? = 30
    ) throws -> HTTPBinEndpoint {
        var endpoint = HTTPBinEndpoint(base: try base(), path: path)
        endpoint.method = method
        endpoint.task = task ?? .requestParameters(urlParameters: query)
        endpoint.timeout = timeout
        return endpoint
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only when the file server is available, or always on CI (where a missing server then fails).
    static var fileserver: Self {
        .enabled(
            if: FileServer.url != nil || HTTPBin.isRequired,
            "the file server is not running: set \(FileServer.variable), or run scripts/test, which starts it"
        )
    }
}

/// What the file server's `/sink` says it received.
struct Sink: Decodable {
    let bytes: Int
    /// Whether the body was exactly the `/pattern` bytes (byte `i` is `i % 251`).
    let pattern: Bool
    let contentType: String?
    let contentLength: String?
    let chunked: Bool
}

/// What the file server's `/multipart` parsed.
struct ParsedForm: Decodable {
    struct Part: Decodable, Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let bytes: Int
        /// Whether the part's content was exactly the `/pattern` bytes.
        let pattern: Bool
        let text: String?
    }

    let bytes: Int
    let parts: [Part]
    let complete: Bool
}
