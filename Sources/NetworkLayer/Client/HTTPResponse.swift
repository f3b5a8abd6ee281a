import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A received HTTP response: status, headers and the whole body, undecoded.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code, for example `200`.
    public let statusCode: Int
    /// The response headers, with case-insensitive lookup, sorted by name when they came from Foundation.
    public var headers: HTTPHeaders {
        switch headerSource {
        case .ready(let headers): headers
        case .received(let received): received.headers
        }
    }
    /// The body bytes as received (after any `Content-Encoding` was undone by the transport).
    public private(set) var body: Data
    /// The URL the response came from, after any redirects.
    public let url: URL?
    /// The HTTP version the response came in, when the transport says (AsyncHTTPClient does;
    /// FoundationNetworking does not): for the spans' and metrics' `network.protocol.version`.
    var protocolVersion: HTTPVersionNumber?

    private let headerSource: HeaderSource

    /// Creates a response; mainly for tests and stubs.
    public init(statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.headerSource = .ready(headers)
        self.body = body
        self.url = url
    }

    /// Creates a response from Foundation's. Its headers are converted when first read, since
    /// most responses are decoded without anyone looking at them; they are sorted by name, since
    /// Foundation keeps no order.
    init(_ response: HTTPURLResponse, body: Data) {
        statusCode = response.statusCode
        // A subclass of yours may not be safe to read later from another thread: convert its headers now.
        let received = ReceivedHeaders(response)
        headerSource = type(of: response) == HTTPURLResponse.self ? .received(received) : .ready(received.headers)
        self.body = body
        url = response.url
    }

    /// A response whose headers `convert` makes when they are first read: for a transport whose
    /// headers are not ``HTTPHeaders`` already, since most responses are decoded without anyone
    /// looking at them.
    init(statusCode: Int, url: URL?, body: Data = Data(), convertingHeaders convert: @escaping @Sendable () -> HTTPHeaders) {
        self.statusCode = statusCode
        headerSource = .received(ReceivedHeaders(convert))
        self.body = body
        self.url = url
    }

    /// Whether status, headers, body and URL are all equal.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.body == rhs.body && lhs.url == rhs.url && lhs.headers == rhs.headers
    }

    /// This response with `body` in place of its own.
    func with(body: Data) -> HTTPResponse {
        var response = self
        response.body = body
        return response
    }

    /// The `Content-Length` the server announced, `nil` when it sent none (or not a number).
    var expectedContentLength: Int64? {
        headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The size of the body the server announced, decoded: its ``expectedContentLength`` when it was
    /// sent as it is, `nil` when encoded (its length is the encoded one).
    var announcedLength: Int64? {
        ResponseLimits.isIdentity(headers["Content-Encoding"]) ? expectedContentLength : nil
    }

    /// Decodes the body as `T` with `decoder`, as a client's sending calls do: ``Empty``, `Data`,
    /// `String` and optionals included, and a failure that names the type and the coding path
    /// (``APIError/decodingFailed(_:body:error:)``) or says the body was empty (``APIError/invalidData``).
    /// - Parameters:
    ///   - type: The type to decode; inferred from the context by default.
    ///   - decoder: The decoder; a plain `JSONDecoder()` by default (``APIClient/decode(_:from:)`` uses the client's).
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws(APIError) -> T {
        try ResponseDecoding.decode(type, from: body, using: decoder)
    }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var text: String? {
        String(data: body, encoding: .utf8)
    }

    /// The start of the body as text (at most 512 bytes), for error messages; `nil` if empty or not text.
    var bodyPreview: String? {
        guard !body.isEmpty, let text = String(data: body.prefix(512), encoding: .utf8) else { return nil }
        let flattened = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return body.count > 512 ? flattened + "…" : flattened
    }

    /// Whether `statusCode` is an interim response's (RFC 9110 §15.2), which a final one follows: any
    /// `1xx` but `101 Switching Protocols`. Transports skip them, and they never count as activity.
    static func isInterim(_ statusCode: Int) -> Bool {
        (100..<200).contains(statusCode) && statusCode != 101
    }

    /// The standard reason phrase for a status code, for example `Not Found` for 404; for a code
    /// outside HTTP's 100–599 (which Foundation would call a server error), says so.
    static func reasonPhrase(for statusCode: Int) -> String {
        guard (100...599).contains(statusCode) else { return "(outside HTTP's 100–599)" }
        let phrase = HTTPURLResponse.localizedString(forStatusCode: statusCode)
        return phrase.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

extension HTTPResponse {
    private enum HeaderSource: Sendable {
        case ready(HTTPHeaders)
        case received(ReceivedHeaders)
    }

    /// A transport's response headers, converted to ``HTTPHeaders`` once, on first use. Copies share
    /// the one conversion: a struct around the lock box, one allocation a response rather than two.
    private struct ReceivedHeaders: Sendable {
        private enum State {
            case pending(HTTPURLResponse)
            case pendingConversion(@Sendable () -> HTTPHeaders)
            case converted(HTTPHeaders)
        }

        // The response is only read, under the lock, and dropped once converted.
        private let state: Locked<State>

        init(_ response: HTTPURLResponse) {
            state = Locked(.pending(response))
        }

        init(_ convert: @escaping @Sendable () -> HTTPHeaders) {
            state = Locked(.pendingConversion(convert))
        }

        var headers: HTTPHeaders {
            state.withLock { state in
                let headers: HTTPHeaders
                switch state {
                case .converted(let converted): return converted
                case .pending(let response): headers = Self.convert(response)
                case .pendingConversion(let convert): headers = convert()
                }
                state = .converted(headers)
                return headers
            }
        }

        private static func convert(_ response: HTTPURLResponse) -> HTTPHeaders {
            // Each name is lowercased once, for sorting and for finding names that differ only in case.
            let fields = response.allHeaderFields
            var keyed: [(key: String, field: HTTPHeader)] = []
            keyed.reserveCapacity(fields.count)
            for (name, value) in fields {
                guard let name = name as? String else { continue }
                keyed.append((name.lowercased(), HTTPHeader(name: name, value: value as? String ?? "\(value)")))
            }
            keyed.sort { $0.key < $1.key }
            return HTTPHeaders(sortedByName: keyed)
        }
    }
}
