import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything that can go wrong between describing a request and holding its decoded value.
///
/// Building a request fails with `invalidURL`, `invalidRequest` or `encodingFailed` before
/// anything is sent, and an interceptor with `adaptationFailed` or `credentialRefreshFailed`;
/// the transport fails with `requestFailed`, `timedOut` or `cancelled`, a redirect with `insecureRedirect`,
/// and the whole call with `deadlineExceeded` when its total deadline passes;
/// the response fails with `invalidResponse` or `unacceptableStatusCode`; decoding fails
/// with `invalidData` or `decodingFailed`; a response stream read too slowly fails with
/// `bufferLimitExceeded`, and a body larger than the client's ``ResponseLimits`` with
/// `responseTooLarge`. Each case has a readable ``description``.
///
/// When a client retries, the error is the last attempt's; ``NetworkEvent``s tell how many were made.
///
/// An error that came from elsewhere is kept as a value a `catch` can match (see
/// ``underlying(as:)``): the `DecodingError` of ``decodingFailed(_:body:error:)``, an adapter's
/// error in ``adaptationFailed(interceptor:error:)``, the refresh's error in
/// ``credentialRefreshFailed(_:)``, and your own error thrown by a validation hook in
/// ``validationFailed(_:_:)``.
///
/// Two errors are equal when their cases and values are; the errors they keep are equal when they
/// are of the same type and equal (an `Equatable` error), or else describe themselves alike with
/// `String(reflecting:)`.
public enum APIError: Error, Sendable, Equatable {
    /// The endpoint's `base` (or `base` + `path`) is not an absolute URL with a scheme and a host, or it
    /// is relative (`""`, `"/v2"`) and the client has no ``ClientConfiguration/baseURL`` to resolve it against.
    case invalidURL(String)
    /// The endpoint describes a request that cannot be sent as written, for example a `GET` with a body
    /// or a header value containing a line break. The text says what and how to fix it.
    case invalidRequest(String)
    /// Parameters or an `Encodable` body could not be encoded; the text names the key or coding path.
    case encodingFailed(String)
    /// The transport failed (connection refused, DNS, TLS, …); the `URLError` says how.
    case requestFailed(URLError)
    /// Nothing was sent or received for the idle timeout (the endpoint's, an interceptor's, else the
    /// transport's), while waiting for the response or its body. Interim `1xx` responses do not count
    /// as something received. A total deadline fails with ``deadlineExceeded(_:)`` instead.
    case timedOut
    /// The request was cancelled, through Swift task cancellation or a ``RequestHandle``.
    case cancelled
    /// The response was not an HTTP response.
    case invalidResponse
    /// The status code is outside the client's acceptable codes; the response keeps status, headers and body.
    case unacceptableStatusCode(Int, HTTPResponse)
    /// The body was empty where a value was expected.
    case invalidData
    /// The body could not be decoded. The text names the type, the coding path and what was wrong,
    /// for example `MoviePage: key 'total_results' not found at results[3]`; `body` is the bytes received,
    /// and `error` what the decoder threw (a `DecodingError`, or an error your `init(from:)` threw).
    case decodingFailed(String, body: Data, error: any Error)
    /// An ``Interceptor`` failed to adapt the request, so nothing was sent. `interceptor` is its type
    /// name, for example `TokenAdapter`, and `error` the error its `adapt` threw.
    case adaptationFailed(interceptor: String, error: any Error)
    /// A ``RefreshingAuthenticator`` could not refresh its credential; the error is the one the refresh
    /// threw (an ``APIError`` when it sent a request with a client). Every request waiting for that
    /// refresh fails with it.
    case credentialRefreshFailed(any Error)
    /// A ``ResponseStream`` was read too slowly: more than this many bytes arrived unread (its
    /// `bufferLimit`), so the transfer was stopped rather than buffer without end.
    case bufferLimitExceeded(Int)
    /// A redirect led from `https` to `http` and the client's ``RedirectPolicy`` does not allow
    /// leaving TLS (see ``RedirectPolicy/allowsInsecureRedirects``): nothing was sent to `to`.
    case insecureRedirect(from: URL, to: URL)
    /// The call did not finish within its total deadline of this many seconds, however busy the server
    /// kept the connection (see ``ClientConfiguration/deadline``, which says what it covers). It is never retried.
    case deadlineExceeded(TimeInterval)
    /// The response body went past a limit of ``ResponseLimits``, so the transfer was stopped and its
    /// connection closed: `limit` is the limit of that `kind` in bytes, and `received` how much of
    /// the body there was when it stopped (the bytes that had arrived, after any `Content-Encoding` was
    /// undone, the chunk that went past the limit included), or, when `announced`, the `Content-Length`
    /// the server declared, which alone was over the limit: then none of the body was read.
    case responseTooLarge(ResponseLimits.Kind, limit: Int64, received: Int64, announced: Bool = false)
    /// A validation hook (``ClientConfiguration/validate`` or ``CallOptions/validateResponse``) threw this error
    /// of yours on this response: for example the `ServerError` a 4xx body decodes as. The hooks run once
    /// the interceptors are done with the call, so a retrier still sees ``unacceptableStatusCode(_:_:)``.
    /// Match your type with `case .validationFailed(let error as ServerError, _)` or ``underlying(as:)``.
    case validationFailed(any Error, HTTPResponse)
    /// The server's chain was valid, but no certificate of it has a public key of the ``TLSPolicy``'s
    /// pins for `host`: `seen` is the SPKI SHA-256 hash (RFC 7469, base64) of each certificate checked,
    /// the server's first. Nothing was sent.
    case certificatePinMismatch(host: String, seen: [String])
    /// The transport cannot honour the ``TLSPolicy`` it was given (`URLSessionTransport` on Linux
    /// honours only the default); the text says what, and which transport can. Raised when the
    /// transport is created, never later.
    case unsupportedTLSPolicy(String)
    /// A ``TLSPolicy`` part cannot be used as given (fewer than two pins, a pin that is not a SHA-256
    /// hash, a certificate or key that cannot be read); the text says which and why.
    case invalidTLSPolicy(String)
    /// A download that keeps what it got (``APIClient/download(resuming:for:to:progress:)``)
    /// failed with the error it carries after part of a resumable body was written: `resumeData` resumes
    /// it, and its partial file stays until you resume or ``DownloadResumeData/discard()`` it. Other
    /// calls never throw it.
    indirect case downloadInterrupted(APIError, resumeData: DownloadResumeData)
    /// A request carrying credentials (`headers`: `Authorization`, `Proxy-Authorization`, `Cookie` or
    /// one of ``RedirectPolicy/sensitiveHeaders``) was about to go to `host` over plain `http`, where
    /// anyone on the path reads them. Nothing was sent. Use `https`, or list a development host in
    /// ``RedirectPolicy/cleartextCredentialHosts``; loopback hosts are always allowed.
    case cleartextCredentials(host: String, headers: [String])

    /// The HTTP status code, when the failure is ``unacceptableStatusCode(_:_:)`` or ``validationFailed(_:_:)``
    /// (kept in a ``downloadInterrupted(_:resumeData:)`` too).
    public var statusCode: Int? {
        response?.statusCode
    }

    /// The HTTP response, when the failure is ``unacceptableStatusCode(_:_:)`` or ``validationFailed(_:_:)``
    /// (kept in a ``downloadInterrupted(_:resumeData:)`` too).
    public var response: HTTPResponse? {
        switch self {
        case .unacceptableStatusCode(_, let response), .validationFailed(_, let response): response
        case .downloadInterrupted(let error, _): error.response
        default: nil
        }
    }

    /// The error this one keeps from elsewhere: the decoder's, an adapter's, a credential refresh's,
    /// a validation hook's, the transport's `URLError`, or the error an interrupted download failed with;
    /// `nil` for the others.
    var underlyingError: (any Error)? {
        switch self {
        case .decodingFailed(_, _, let error), .adaptationFailed(_, let error), .credentialRefreshFailed(let error),
            .validationFailed(let error, _):
            error
        case .requestFailed(let error):
            error
        case .downloadInterrupted(let error, _):
            error
        default:
            nil
        }
    }

    /// The error of type `E` this one keeps, looking through the ``APIError``s it keeps in turn (a
    /// refresh that failed with your validation hook's error); `nil` when there is none.
    ///
    /// ```swift
    /// if let serverError = error.underlying(as: ServerError.self) { show(serverError.message) }
    /// ```
    public func underlying<E: Error>(as type: E.Type = E.self) -> E? {
        var next = underlyingError
        while let error = next {
            if let match = error as? E { return match }
            next = (error as? APIError)?.underlyingError
        }
        return nil
    }
}

extension APIError: CustomStringConvertible, LocalizedError {
    /// A one-line, human-readable account of the failure.
    public var description: String {
        switch self {
        case .invalidURL(let url) where URLBuilder.isRelative(url):
            "Invalid URL '\(url)': a relative base needs a base URL; set the client's ClientConfiguration.baseURL, "
                + "or give the endpoint an absolute base with a scheme and a host, such as https://api.example.com"
        case .invalidURL(let url):
            "Invalid URL '\(url)': expected an absolute URL with a scheme and a host, such as https://api.example.com"
        case .invalidRequest(let reason):
            "Invalid request: \(reason)"
        case .encodingFailed(let reason):
            "Encoding failed: \(reason)"
        case .requestFailed(let error):
            "Request failed: \(error.summary)"
        case .timedOut:
            "The request timed out: nothing was sent or received for its idle timeout"
        case .cancelled:
            "The request was cancelled"
        case .invalidResponse:
            "The response was not an HTTP response"
        case .unacceptableStatusCode(let code, let response):
            "The server answered \(code) \(HTTPResponse.reasonPhrase(for: code))"
                + (response.bodyPreview.map { ": \($0)" } ?? "")
        case .invalidData:
            "The response body was empty where a value was expected"
        case .decodingFailed(let reason, let body, _):
            "Decoding failed: \(reason) (body: \(body.count) bytes)"
        case .adaptationFailed(let interceptor, let error):
            "Interceptor \(interceptor) failed to adapt the request, so it was not sent: \(Self.reason(error))"
        case .credentialRefreshFailed(let error):
            "Refreshing the credential failed: \(Self.reason(error))"
        case .bufferLimitExceeded(let limit):
            "The stream was read too slowly: more than \(limit) bytes arrived unread, so the transfer was stopped"
        case .insecureRedirect(let from, let to):
            "Refused a redirect from \(Redaction.default.string(for: from)) to \(Redaction.default.string(for: to)): it leaves TLS; "
                + "RedirectPolicy(allowsInsecureRedirects: true) allows it"
        case .deadlineExceeded(let seconds):
            "The request did not finish within its deadline of \(Self.seconds(seconds)) s"
        case .responseTooLarge(let kind, let limit, let received, let announced):
            "The response body is larger than the \(kind.noun) limit of \(Self.bytes(limit)): "
                + (announced
                    ? "its Content-Length declared \(Self.bytes(received)), so none of it was read. Raise"
                    : "the transfer was stopped at \(Self.bytes(received)). Raise")
                + " ResponseLimits.\(kind.property) (the client's responseLimits, or the endpoint's)"
                + (kind == .inMemory ? ", or download the body to a file" : "")
        case .validationFailed(let error, let response):
            "The response (\(response.statusCode) \(HTTPResponse.reasonPhrase(for: response.statusCode))) failed validation: "
                + Self.reason(error)
        case .certificatePinMismatch(let host, let seen):
            "The certificate chain of \(host) is valid but matches none of the TLS policy's pins; it has the public keys "
                + seen.map { "sha256/\($0)" }.joined(separator: ", ")
        case .unsupportedTLSPolicy(let reason):
            "Unsupported TLS policy: \(reason)"
        case .invalidTLSPolicy(let reason):
            "Invalid TLS policy: \(reason)"
        case .downloadInterrupted(let error, let resumeData):
            "The download stopped after \(Self.bytes(resumeData.bytesReceived)) of \(Self.bytes(resumeData.expectedBytes)), "
                + "kept for resuming: \(error.description)"
        case .cleartextCredentials(let host, let headers):
            "Refused to send \(headers.joined(separator: ", ")) to \(host) over plain http, where anyone on the path can read "
                + "it; nothing was sent. Use https, or list the host in RedirectPolicy.cleartextCredentialHosts"
        }
    }

    /// `seconds` as a person writes them: `2`, `0.5`.
    private static func seconds(_ seconds: TimeInterval) -> String {
        seconds.isFinite && seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }

    /// `count` bytes, in words: `512 bytes`, or `8388608 bytes (8.0 MiB)`.
    private static func bytes(_ count: Int64) -> String {
        count < 1024 * 1024 ? "\(count) bytes" : "\(count) bytes (\(String(format: "%.1f", Double(count) / 1_048_576)) MiB)"
    }

    /// The same text as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// The error for a body on a method that cannot carry one (`GET`, `HEAD`).
    static func bodyNotAllowed(_ method: HTTPMethod) -> APIError {
        .invalidRequest("a \(method.rawValue) request cannot carry a body; send the values as urlParameters or use another method")
    }

    /// Maps an error an interceptor's `adapt` threw: an `APIError` as it is, cancellation to
    /// ``cancelled``, anything else to ``adaptationFailed(interceptor:error:)`` naming the interceptor.
    init(adapterError error: any Error, interceptor: any Interceptor) {
        if let error = error as? APIError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .adaptationFailed(interceptor: String(describing: type(of: interceptor)), error: error)
        }
    }

    /// A readable account of any error: a `URLError`'s summary, a `LocalizedError`'s `errorDescription`, else its description.
    static func reason(_ error: any Error) -> String {
        if let error = error as? URLError { return error.summary }
        if let error = error as? any LocalizedError, let description = error.errorDescription { return description }
        return String(describing: error)
    }

    /// Maps an error from the transport: timeouts and cancellation get their own cases, other
    /// `URLError`s become ``requestFailed(_:)``, and anything else is wrapped in a `URLError(.unknown)`.
    ///
    /// For ``HTTPTransport`` implementations, so that every transport reports failures alike.
    /// - Parameter error: What the HTTP implementation threw; an ``APIError`` stays as it is.
    public init(transportError error: any Error) {
        if let error = error as? APIError {
            self = error
        } else if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: self = .timedOut
            case .cancelled: self = .cancelled
            default: self = .requestFailed(urlError)
            }
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .requestFailed(
                URLError(
                    .unknown,
                    userInfo: [NSUnderlyingErrorKey: error, NSLocalizedDescriptionKey: String(describing: error)]
                )
            )
        }
    }
}

extension URLError {
    /// The error code's meaning and number, with the description the error carries when it adds to
    /// that meaning (FoundationNetworking's is libcurl's own message, such as "Received HTTP/0.9 when
    /// not allowed"), plus the URL when known.
    var summary: String {
        let meaning: String? =
            switch code {
            case .cannotConnectToHost: "could not connect to the server"
            case .cannotFindHost: "the host name could not be resolved"
            case .dnsLookupFailed: "the DNS lookup failed"
            case .notConnectedToInternet: "not connected to the internet"
            case .networkConnectionLost: "the network connection was lost"
            case .badURL: "the URL is malformed"
            case .unsupportedURL: "the URL's scheme is not supported"
            case .badServerResponse: "the server's response could not be parsed"
            case .secureConnectionFailed: "the TLS handshake failed"
            case .serverCertificateHasBadDate: "the server's certificate has expired"
            case .serverCertificateNotYetValid: "the server's certificate is not yet valid"
            case .serverCertificateHasUnknownRoot: "the server's certificate is not signed by an authority this client trusts"
            case .serverCertificateUntrusted: "the server's certificate is not valid for this host"
            case .httpTooManyRedirects: "too many HTTP redirects"
            case .dataLengthExceedsMaximum: "the resource exceeds the maximum size"
            case .userAuthenticationRequired: "authentication is required"
            default: nil
            }
        let detail = (userInfo[NSLocalizedDescriptionKey] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let text: String =
            switch (meaning, detail) {
            case (let meaning?, let detail?): Self.says(detail, meaning) ? meaning : "\(meaning): \(detail)"
            case (let meaning?, nil): meaning
            case (nil, let detail?): detail
            case (nil, nil): "URL error"
            }
        // The description ends up in logs: keep secrets in the query (`api_key`, `token`, …) out of it.
        let url = failingURL.map { " (\(Redaction.default.string(for: $0)))" } ?? ""
        return "\(text) [URLError \(code.rawValue)]\(url)"
    }

    /// Whether `detail` says no more than `meaning` ("Could not connect to the server." does not).
    private static func says(_ detail: String, _ meaning: String) -> Bool {
        func normalized(_ text: String) -> String {
            text.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "."))).lowercased()
        }
        return normalized(detail) == normalized(meaning)
    }
}
