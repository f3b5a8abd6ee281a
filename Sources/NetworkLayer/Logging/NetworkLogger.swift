import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``Interceptor`` that writes each request and response as text to a closure you choose, so
/// you can forward it to `print`, swift-log or `os_log` without the library depending on any of them.
///
/// ```swift
/// let logger = NetworkLogger(level: .debug) { line in log.debug("\(line)") }
/// let client = NetworkClient { $0.interceptors = [RetryPolicy(), logger] }
/// // GET https://api.example.com/items?api_key=<redacted> → 200 OK, 35 ms, sent 0 B, received 1.2 KB
/// ```
///
/// A message is written when each attempt ends (with whether it is retried), and a summary when a
/// request ends after more than one attempt or before any. ``Level/debug`` adds the headers and the
/// start of each body (at most `bodyLimit` bytes). Bodies appear at ``Level/debug`` only: at
/// ``Level/error`` and ``Level/info`` an unacceptable status is written as `The server answered 404
/// Not Found`, without the start of the body that ``APIError``'s own description adds.
/// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and common credential query
/// parameters such as `api_key` are redacted by default (see ``Redaction``); bodies are written as
/// they are, so keep ``Level/debug`` away from bodies that carry secrets.
public struct NetworkLogger: Interceptor {
    /// How much is written.
    public enum Level: Sendable, Comparable {
        /// Only requests that finally failed, one line each, without any body.
        case error
        /// One line per attempt (method, URL, status, duration, sizes, retry), and a summary after retries; no bodies.
        case info
        /// As ``info``, plus request and response headers and the start of each body.
        case debug

    }

    /// How much is written.
    let level: Level
    /// The header and query values that are hidden.
    let redaction: Redaction
    /// The most bytes of each body written at ``Level/debug``; 0 writes no body.
    let bodyLimit: Int
    private let sink: @Sendable (String) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - level: How much is written; ``Level/info`` by default.
    ///   - redaction: The header and query values that are hidden; ``Redaction/default`` by default.
    ///   - bodyLimit: The most bytes of each body written at ``Level/debug``; 1,024 by default, 0 for none.
    ///   - sink: Receives each message (which may span several lines); `print` by default.
    public init(
        level: Level = .info,
        redaction: Redaction = .default,
        bodyLimit: Int = 1024,
        sink: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.level = level
        self.redaction = redaction
        self.bodyLimit = bodyLimit
        self.sink = sink
    }

    /// Writes the messages for `event` that the logger's level asks for.
    public func observe(_ event: NetworkEvent) {
        switch event {
        case .requestStarted:
            break
        case .exchangeFinished(let metrics):
            guard level >= .info, RedirectPolicy.isRedirect(metrics.response.statusCode) else { return }
            sink(message(forRedirect: metrics))
        case .attemptFinished(let metrics):
            guard level >= .info else { return }
            sink(message(for: metrics))
        case .requestFinished(let metrics):
            let failed = metrics.error != nil
            guard (level >= .info && metrics.attempts != 1) || (level == .error && failed) else { return }
            sink(message(for: metrics))
        }
    }

    /// `GET https://… → 200 OK, 35 ms, sent 0 B, received 1.2 KB`, with headers and bodies at debug level.
    func message(for metrics: AttemptMetrics) -> String {
        var line = "\(requestLine(metrics.request)) → "
        if let response = metrics.response {
            line += "\(response.statusCode) \(HTTPResponse.reasonPhrase(for: response.statusCode)), "
            if let outcome = HTTPCache.outcome(of: response) { line += "\(Self.describe(outcome)), " }
        } else if let error = metrics.error {
            line += "\(Self.summary(of: error)), "
        }
        line += "\(Self.duration(metrics.duration)), sent \(Self.size(metrics.bytesSent)), received \(Self.size(metrics.bytesReceived))"
        if metrics.attempt > 1 { line += " (attempt \(metrics.attempt))" }
        if let delay = metrics.retryDelay { line += "; retrying" + (delay > 0 ? " in \(Self.duration(delay))" : "") }
        guard level >= .debug else { return line }
        var lines = [line]
        lines += details(
            prefix: ">", headers: (metrics.request.allHTTPHeaderFields ?? [:]).map(HTTPHeader.init), body: metrics.request.httpBody)
        if let response = metrics.response {
            lines += details(prefix: "<", headers: Array(response.headers), body: response.body)
        }
        return lines.joined(separator: "\n")
    }

    /// `GET https://a.example/x → 302 Found, redirected to https://b.example/y`: a redirect hop, which
    /// its attempt's line (the last hop's) would not show.
    func message(forRedirect metrics: ExchangeMetrics) -> String {
        let status = metrics.response.statusCode
        var line = "\(requestLine(metrics.request)) → \(status) \(HTTPResponse.reasonPhrase(for: status))"
        if let location = metrics.response.headers["Location"],
            let target = URL(string: location, relativeTo: metrics.request.url)?.absoluteURL
        {
            line += ", redirected to \(redaction.string(for: target))"
        }
        if let outcome = HTTPCache.outcome(of: metrics.response) { line += " (\(Self.describe(outcome)))" }
        return line
    }

    /// How a response came from the cache, as a log line says it.
    static func describe(_ outcome: HTTPCache.Outcome) -> String {
        switch outcome {
        case .hit: "from the cache, nothing sent"
        case .revalidated: "from the cache, confirmed by a 304"
        case .stale: "stale from the cache"
        }
    }

    /// `GET https://… failed after 3 attempts in 1.61 s: …` or `… succeeded after 2 attempts in 0.20 s`.
    func message(for metrics: RequestMetrics) -> String {
        let attempts = metrics.attempts == 1 ? "1 attempt" : "\(metrics.attempts) attempts"
        let outcome = metrics.error.map { "failed after \(attempts) in \(Self.duration(metrics.duration)): \(Self.summary(of: $0))" }
        return "\(requestLine(metrics.request)) " + (outcome ?? "succeeded after \(attempts) in \(Self.duration(metrics.duration))")
    }

    private func requestLine(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url.map { redaction.string(for: $0) } ?? "(no URL)")"
    }

    /// Headers sorted by name as `> Name: value`, then the start of the body.
    private func details(prefix: String, headers: [HTTPHeader], body: Data?) -> [String] {
        var lines = headers.sorted { $0.name.lowercased() < $1.name.lowercased() }.map { header in
            "\(prefix) \(header.name): \(redaction.value(header.value, forHeader: header.name))"
        }
        if let body, !body.isEmpty, bodyLimit > 0 {
            lines.append("\(prefix) \(Self.preview(of: body, limit: bodyLimit))")
        }
        return lines
    }

    /// An error as a message says it: its description, but for an unacceptable status only the
    /// status, since bodies are written at debug level only, cut at ``bodyLimit``.
    static func summary(of error: APIError) -> String {
        if case .unacceptableStatusCode(let code, _) = error {
            return "The server answered \(code) \(HTTPResponse.reasonPhrase(for: code))"
        }
        return error.description
    }

    /// The body as text, cut at `limit` bytes, or a note that it is binary.
    static func preview(of body: Data, limit: Int) -> String {
        let head = body.prefix(max(0, limit))
        let isCut = head.count < body.count
        // A cut may split a UTF-8 sequence: then drop up to three trailing bytes before giving up on text.
        for trim in 0...(isCut ? min(3, max(0, head.count - 1)) : 0) {
            if let text = String(data: head.dropLast(trim), encoding: .utf8) {
                return isCut ? "\(text)… (\(size(body.count)) in all)" : text
            }
        }
        return "<\(size(body.count)) of binary data>"
    }

    /// `35 ms` below a second, `1.61 s` above.
    static func duration(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.2f s", seconds)
    }

    /// `512 B`, `1.2 KB`, `3.4 MB` (powers of 1,024).
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / (1024 * 1024))
    }
}
