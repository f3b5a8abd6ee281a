import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The attributes OpenTelemetry's stable HTTP client conventions give one exchange (one request sent,
/// each redirect hop and each retry alike), computed once for spans, metrics and logs: the same
/// names and values whichever integration reports them.
///
/// Only low-cardinality values become metric dimensions: the method, the server, the status, the
/// error's type and the route template an endpoint gives. The URL is a span attribute and a log
/// field only, redacted.
struct HTTPClientConventions: Sendable {
    /// The methods the conventions know; any other is reported as `_OTHER`, with the original beside it.
    static let knownMethods: Set<String> = ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE", "QUERY"]

    /// `http.request.method`: the method, or `_OTHER` for one the conventions do not know.
    let method: String
    /// `http.request.method_original`: the method as sent, when it is reported as `_OTHER`.
    let originalMethod: String?
    /// `server.address`: the host the request was sent to (without an IPv6 address's brackets).
    let serverAddress: String
    /// `server.port`: its port, explicit or the scheme's.
    let serverPort: Int
    /// `url.scheme`.
    let scheme: String
    /// The request's URL, for `url.full`.
    private let url: URL?
    /// `url.template`: the endpoint's route template, when it gives one.
    let template: String?

    /// The attributes of `request`, with the endpoint's route `template`.
    init(request: URLRequest, template: String?) {
        let method = (request.httpMethod ?? "GET")
        let known = Self.knownMethods.contains(method)
        self.method = known ? method : "_OTHER"
        originalMethod = known ? nil : method
        let url = request.url
        scheme = url?.scheme?.lowercased() ?? ""
        var host = url?.host ?? ""
        if host.utf8.first == UInt8(ascii: "["), host.utf8.last == UInt8(ascii: "]") {
            host = String(host.dropFirst().dropLast())
        }
        serverAddress = host
        serverPort = url.map(RedirectPolicy.effectivePort) ?? 80
        self.url = url
        self.template = template
    }

    /// `url.full`: the URL, redacted as the conventions say: userinfo as `REDACTED:REDACTED`, and the
    /// values of the query parameters ``Redaction/default`` hides (the conventions' list among them)
    /// as `REDACTED`. Made when asked for: metrics never carry it.
    var fullURL: String {
        url.map { Redaction.default.string(for: $0, placeholder: "REDACTED") } ?? ""
    }

    /// The span's name: `{method} {template}` when the endpoint gives a template, else `{method}`;
    /// `HTTP` in place of a method the conventions do not know.
    var spanName: String {
        let name = originalMethod == nil ? method : "HTTP"
        return template.map { "\(name) \($0)" } ?? name
    }

    /// `http.request.resend_count` of an exchange: how many requests of the call were sent before it
    /// (earlier attempts and redirect hops alike); `nil` for the first, which the conventions leave unset.
    static func resendCount(_ sentBefore: Int) -> Int? {
        sentBefore > 0 ? sentBefore : nil
    }

    /// `error.type` of an exchange that ended with `status`: the status as text for a `4xx` or `5xx`
    /// (errors for a client, by the conventions), `nil` for any other.
    static func errorType(status: Int) -> String? {
        status >= 400 ? String(status) : nil
    }

    /// The dimensions of `http.client.request.duration` and the body sizes: the conventions' required
    /// and recommended ones, all of low cardinality, with the status or error when there is one, and
    /// the HTTP version when the transport said.
    func dimensions(status: Int?, errorType: String?, version: HTTPVersionNumber? = nil) -> [(String, String)] {
        var dimensions = [
            ("http.request.method", method), ("server.address", serverAddress), ("server.port", String(serverPort)),
            ("url.scheme", scheme),
        ]
        if let template { dimensions.append(("url.template", template)) }
        if let status { dimensions.append(("http.response.status_code", String(status))) }
        if let errorType { dimensions.append(("error.type", errorType)) }
        if let version { dimensions.append(("network.protocol.version", version.text)) }
        return dimensions
    }

    /// The dimensions of `http.client.active_requests`: no status or error, which it never has.
    var activeDimensions: [(String, String)] {
        dimensions(status: nil, errorType: nil)
    }
}

/// An HTTP version as `network.protocol.version` writes it: `1.0`, `1.1`, `2`, `3`.
enum HTTPVersionNumber: UInt8, Sendable {
    case http1_0, http1_1, http2, http3

    /// The version `major.minor`; `nil` for one the conventions have no name for.
    init?(major: Int, minor: Int) {
        switch (major, minor) {
        case (1, 0): self = .http1_0
        case (1, 1): self = .http1_1
        case (2, 0): self = .http2
        case (3, 0): self = .http3
        default: return nil
        }
    }

    /// `1.0`, `1.1`, `2` or `3`.
    var text: String {
        switch self {
        case .http1_0: "1.0"
        case .http1_1: "1.1"
        case .http2: "2"
        case .http3: "3"
        }
    }
}

extension APIError {
    /// `error.type` of an exchange or call that failed with this error: a short name that stays the
    /// same from one failure to the next (never a message, a URL or a body), so that it can be a
    /// metric dimension. The status for a rejected one; a `URLError`'s code by name.
    var conventionsType: String {
        switch self {
        case .unacceptableStatusCode(let status, _): String(status)
        case .timedOut: "timeout"
        case .cancelled: "cancelled"
        case .deadlineExceeded: "deadline_exceeded"
        case .requestFailed(let error): error.conventionsType
        case .responseTooLarge: "response_too_large"
        case .bufferLimitExceeded: "buffer_limit_exceeded"
        case .certificatePinMismatch: "certificate_pin_mismatch"
        case .cleartextCredentials: "cleartext_credentials"
        case .insecureRedirect: "insecure_redirect"
        case .invalidResponse: "invalid_response"
        case .invalidData: "invalid_data"
        case .invalidURL: "invalid_url"
        case .invalidRequest: "invalid_request"
        case .invalidTLSPolicy: "invalid_tls_policy"
        case .unsupportedTLSPolicy: "unsupported_tls_policy"
        case .encodingFailed: "encoding_failed"
        case .decodingFailed: "decoding_failed"
        case .validationFailed: "validation_failed"
        case .adaptationFailed: "adaptation_failed"
        case .credentialRefreshFailed: "credential_refresh_failed"
        case .downloadInterrupted(let error, _): error.conventionsType
        }
    }
}

extension URLError {
    /// `error.type` of a transport failure: the code by name for the usual ones, else its number.
    var conventionsType: String {
        switch code {
        case .timedOut: "timeout"
        case .cannotFindHost, .dnsLookupFailed: "cannot_find_host"
        case .cannotConnectToHost: "cannot_connect_to_host"
        case .networkConnectionLost: "network_connection_lost"
        case .notConnectedToInternet: "not_connected_to_internet"
        case .secureConnectionFailed: "secure_connection_failed"
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot: "server_certificate_untrusted"
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid: "server_certificate_bad_date"
        case .clientCertificateRejected, .clientCertificateRequired: "client_certificate_rejected"
        case .badServerResponse: "bad_server_response"
        case .httpTooManyRedirects: "too_many_redirects"
        case .cannotCreateFile, .cannotOpenFile, .cannotWriteToFile, .cannotMoveFile, .cannotRemoveFile, .cannotCloseFile:
            "file_error"
        default: "url_error_\(code.rawValue)"
        }
    }
}
