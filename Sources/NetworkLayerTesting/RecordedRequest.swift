import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request a ``StubSession`` or ``StubTransport`` received, body included, for assertions.
public struct RecordedRequest: Sendable {
    /// The method.
    public let method: HTTPMethod
    /// The full URL, query included.
    public let url: URL
    /// The request-level headers. (On Linux a session's `httpAdditionalHeaders` never reach a `URLProtocol`, so they are absent.)
    public let headers: HTTPHeaders
    /// The body, read from `httpBody` or drained from `httpBodyStream`; `nil` when there was none.
    public let body: Data?

    /// Records `request`, reading its body from whichever of `httpBody` or `httpBodyStream` carries it.
    init(_ request: URLRequest, body: Data? = nil) {
        method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        url = request.url ?? URL(fileURLWithPath: "/")
        headers = HTTPHeaders((request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map(HTTPHeader.init))
        self.body = body ?? request.httpBody ?? request.httpBodyStream.map(Self.readAll)
    }

    /// The URL's path, percent-decoded, for example `/movie/popular`.
    public var path: String {
        url.path.isEmpty ? "/" : url.path
    }

    /// The raw (percent-encoded) query string, or `nil` when the URL has none.
    public var query: String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
    }

    /// The body as UTF-8 text, or `nil` when there is no body or it is not text.
    public var bodyText: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
