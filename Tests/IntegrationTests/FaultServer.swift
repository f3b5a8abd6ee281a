import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The misbehaving server (`scripts/faultserver.py`) that `scripts/test` starts, found through
/// `NETWORKLAYER_FAULTSERVER_URL`, with a second port that closes every connection it accepts in
/// `NETWORKLAYER_FAULTSERVER_CLOSING_URL`.
///
/// Like ``HTTPBin``, its suites are skipped with a note when the variables are not set, and fail on CI
/// (`CI=true`) instead.
enum FaultServer {
    /// The environment variable that holds the server's base URL.
    static let variable = "NETWORKLAYER_FAULTSERVER_URL"
    /// The environment variable that holds the base URL of the port that closes on accept.
    static let closingVariable = "NETWORKLAYER_FAULTSERVER_CLOSING_URL"

    /// The base URL from the environment, if set.
    static let url: String? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }

    /// The server's base URL, or a failure naming the variable to set.
    static func base() throws -> String {
        try #require(url, "the fault server is not running: set \(variable) (scripts/test starts it and sets it)")
    }

    /// The base URL of the port that closes every connection as soon as it accepts it.
    static func closingBase() throws -> String {
        let url = ProcessInfo.processInfo.environment[closingVariable].flatMap { $0.isEmpty ? nil : $0 }
        return try #require(url, "the fault server is not running: set \(closingVariable) (scripts/test starts it and sets it)")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only when the fault server is available, or always on CI (where a missing server then fails).
    static var faultserver: Self {
        .enabled(
            if: FaultServer.url != nil || HTTPBin.isRequired,
            "the fault server is not running: set \(FaultServer.variable), or run scripts/test, which starts it"
        )
    }
}

/// One way the fault server misbehaves, and the path that makes it.
enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case closeOnAccept = "close on accept"
    case hangUp = "close after the request"
    case resetMidBody = "reset mid-body"
    case slowHeaders = "slow headers"
    case slowBody = "slow body"
    case shortContentLength = "short Content-Length"
    case truncatedChunkedBody = "truncated chunked body"
    case garbageStatusLine = "garbage status line"
    case http10WithoutLength = "HTTP/1.0 without length"
    case hugeHeaderLine = "100 KiB header line"
    case noContentWithBody = "204 with a body"
    case invalidJSON = "invalid JSON"
    case invalidUTF8 = "invalid UTF-8"
    case thousandHeaders = "1,000 headers"
    case conflictingContentLength = "conflicting Content-Length (12 and 400)"
    case trailers = "chunked body with trailers"
    case tenThousandHeaders = "10,000 headers"
    case badChunkSize = "a chunk size that is not hexadecimal"
    case headerWithoutColon = "a header line without a colon"
    case invalidContentLength = "a Content-Length that is not a number"
    case nulInHeader = "a NUL byte in a header"
    case badGzip = "a gzip body that is not gzip"
    case status999 = "status 999"
    case status099 = "status 099"
    case redirectLoop = "redirect loop"
    case redirectToRefusedPort = "redirect to a refused port"

    var testDescription: String { rawValue }

    /// The base URL and path that make the fault.
    func location() throws -> (base: String, path: String) {
        switch self {
        case .closeOnAccept: (try FaultServer.closingBase(), "/ok")
        case .hangUp: (try FaultServer.base(), "/hang-up")
        case .resetMidBody: (try FaultServer.base(), "/reset-mid-body")
        case .slowHeaders: (try FaultServer.base(), "/slow-headers")
        case .slowBody: (try FaultServer.base(), "/slow-body")
        case .shortContentLength: (try FaultServer.base(), "/short-content-length")
        case .truncatedChunkedBody: (try FaultServer.base(), "/truncated-chunked")
        case .garbageStatusLine: (try FaultServer.base(), "/garbage-status-line")
        case .http10WithoutLength: (try FaultServer.base(), "/http10-no-length")
        case .hugeHeaderLine: (try FaultServer.base(), "/huge-header")
        case .noContentWithBody: (try FaultServer.base(), "/no-content-with-body")
        case .invalidJSON: (try FaultServer.base(), "/invalid-json")
        case .invalidUTF8: (try FaultServer.base(), "/invalid-utf8")
        case .thousandHeaders: (try FaultServer.base(), "/many-headers")
        case .conflictingContentLength: (try FaultServer.base(), "/conflicting-length")
        case .trailers: (try FaultServer.base(), "/trailers")
        case .tenThousandHeaders: (try FaultServer.base(), "/ten-thousand-headers")
        case .badChunkSize: (try FaultServer.base(), "/bad-chunk-size")
        case .headerWithoutColon: (try FaultServer.base(), "/header-without-colon")
        case .invalidContentLength: (try FaultServer.base(), "/invalid-length")
        case .nulInHeader: (try FaultServer.base(), "/nul-in-header")
        case .badGzip: (try FaultServer.base(), "/bad-gzip")
        case .status999: (try FaultServer.base(), "/status-999")
        case .status099: (try FaultServer.base(), "/status-099")
        case .redirectLoop: (try FaultServer.base(), "/redirect-loop")
        case .redirectToRefusedPort: (try FaultServer.base(), "/redirect-refused")
        }
    }
}
