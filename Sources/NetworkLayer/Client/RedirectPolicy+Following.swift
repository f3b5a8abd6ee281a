import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RedirectPolicy {
    /// Whether `statusCode` redirects to its `Location`: 301, 302, 303, 307 or 308.
    static func isRedirect(_ statusCode: Int) -> Bool {
        switch statusCode {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The headers that describe a body, removed with it when a redirect turns the request into a `GET`.
    static let bodyHeaders = ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"]

    /// The most of a redirect's body read before its connection is given up rather than kept.
    static let discardedBodyLimit = 64 * 1024

    /// Sends `request` with `send`, then each request its redirects lead to, by this policy; `send`
    /// is given the URLs the request was redirected from, oldest first.
    /// - Returns: The first response that is not a redirect to follow.
    /// - Throws: What `send` throws; ``APIError/insecureRedirect(from:to:)``; ``APIError/requestFailed(_:)``
    ///   (`httpTooManyRedirects`) past ``maximumRedirects``.
    func send(
        _ request: TransportRequest,
        through send: (TransportRequest, _ redirectedFrom: [URL]) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        var request = request
        var redirectedFrom: [URL] = []
        while true {
            let response = try await send(request, redirectedFrom)
            // Most responses are no redirect: told so before the asynchronous look at what follows.
            guard Self.isRedirect(response.head.statusCode),
                let next = try await nextRequest(after: response.head, answering: request, redirects: redirectedFrom.count)
            else { return response }
            // Read to its end, a short body leaves the connection for the next request.
            _ = try? await response.body.prefix(upTo: Self.discardedBodyLimit)
            // `nextRequest` follows only a request with a URL.
            if let url = request.urlRequest.url { redirectedFrom.append(url) }
            request = next
        }
    }

    /// The request to send after `response` answered `request`, or `nil` when `response` is the one to
    /// hand back: not a redirect, no usable `Location`, a body that cannot be sent again, or declined
    /// by ``onRedirect``.
    func nextRequest(
        after response: HTTPResponse,
        answering request: TransportRequest,
        redirects: Int
    ) async throws(APIError) -> TransportRequest? {
        guard maximumRedirects > 0, Self.isRedirect(response.statusCode),
            let current = request.urlRequest.url,
            let location = response.headers["Location"],
            let target = URL(string: location, relativeTo: response.url ?? current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
        guard redirects < maximumRedirects else {
            throw .requestFailed(URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: target]))
        }
        if current.scheme?.lowercased() == "https", scheme == "http", !allowsInsecureRedirects {
            throw .insecureRedirect(from: current, to: target)
        }
        var next = request
        next.urlRequest.url = target
        let method = HTTPMethod(rawValue: request.urlRequest.httpMethod ?? "GET")
        let becomesGET =
            (response.statusCode == 303 && method != .head) || ([301, 302].contains(response.statusCode) && method == .post)
        if becomesGET {
            next.urlRequest.httpMethod = HTTPMethod.get.rawValue
            next.urlRequest.httpBody = nil
            next.urlRequest.httpBodyStream = nil
            next.bodyFile = nil
            for name in Self.bodyHeaders { next.urlRequest.setValue(nil, forHTTPHeaderField: name) }
        } else if request.urlRequest.httpBodyStream != nil {
            // Read once already: it cannot go to the new location.
            return nil
        }
        if !Self.sameOrigin(current, target) {
            for name in Self.credentialHeaders.union(sensitiveHeaders) { next.urlRequest.setValue(nil, forHTTPHeaderField: name) }
        }
        if let onRedirect {
            guard let decided = await onRedirect(response, next.urlRequest) else { return nil }
            next.urlRequest = decided
        }
        return next
    }

    /// Whether `lhs` and `rhs` have the same scheme, host and port.
    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    /// The port `url` goes to: its own, else its scheme's (443 for `https`, 80 for any other).
    static func effectivePort(_ url: URL) -> Int {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}

extension RedirectPolicy {
    /// Removes from `request` the credentials an interceptor added to it since it was `entering` the
    /// chain: on a redirect hop that left the attempt's origin, a credential goes only when the
    /// redirect itself carries it (``onRedirect`` put it back), never because an interceptor adds one
    /// on every hop. `Cookie` stays: a cookie jar sends each origin its own cookies.
    func removeCredentials(from request: inout URLRequest, addedSince entering: URLRequest) {
        for name in Self.credentialHeaders.union(sensitiveHeaders) where !name.caseInsensitiveEquals("Cookie") {
            if request.value(forHTTPHeaderField: name) != nil, entering.value(forHTTPHeaderField: name) == nil {
                request.setValue(nil, forHTTPHeaderField: name)
            }
        }
    }

    /// Fails a request that would carry credentials in clear text: over plain `http` to a host that is
    /// neither a loopback one nor in ``cleartextCredentialHosts``.
    func checkCleartextCredentials(_ request: URLRequest) throws(APIError) {
        // Most requests carry few fields, and reading them costs less than asking the URL for its scheme.
        guard let fields = request.allHTTPHeaderFields, !fields.isEmpty, let url = request.url,
            url.scheme?.caseInsensitiveEquals("http") == true
        else { return }
        let credentials = Self.credentialHeaders.union(sensitiveHeaders)
        let carried = fields.keys.filter { name in credentials.contains { $0.caseInsensitiveEquals(name) } }.sorted()
        guard !carried.isEmpty else { return }
        let host = (url.host ?? "").lowercased()
        guard !Self.isLoopback(host), !cleartextCredentialHosts.contains(where: { $0.lowercased() == host }) else { return }
        throw .cleartextCredentials(host: host, headers: carried)
    }

    /// Whether `host` names this machine: `localhost` (and names under it), `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
