import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How NetworkLayer follows a redirect itself, where FoundationNetworking would lose the body.
///
/// A redirect that keeps the method (307 and 308, and 301 and 302 for a method other than POST)
/// must send the body again; on Linux FoundationNetworking sends it empty, so ``SessionDelegate``
/// declines such redirects and ``URLSessionTransport`` follows them with this policy: the method,
/// headers and body stay, the URL is the `Location` resolved against the response's URL, and
/// credentials do not follow the request to another origin (`Authorization` and `Cookie` are
/// dropped when the scheme, host or port changes). A streamed `httpBodyStream` cannot be sent twice,
/// so its redirect is handed back as the response. After ``maximumRedirects`` the request fails, as
/// URLSession's own redirects do.
enum RedirectPolicy {
    /// As many redirects as URLSession itself follows before giving up.
    static let maximumRedirects = 20

    /// The redirects that can keep the method, and so must keep the body; 303 always turns into a GET.
    static let bodyRedirectStatusCodes: Set<Int> = [301, 302, 307, 308]

    /// The request to send after `response` redirected `request`, or `nil` when it cannot be followed
    /// with its body (no `Location`, not HTTP, a streamed body).
    static func request(following response: HTTPURLResponse, from request: TransportRequest) -> TransportRequest? {
        guard bodyRedirectStatusCodes.contains(response.statusCode),
            request.bodyFile != nil || !(request.urlRequest.httpBody ?? Data()).isEmpty,
            let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url ?? request.urlRequest.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var next = request
        next.urlRequest.url = target
        if let url = request.urlRequest.url, !sameOrigin(url, target) {
            next.urlRequest.setValue(nil, forHTTPHeaderField: "Authorization")
            next.urlRequest.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return next
    }

    /// Whether `request` sends a body in itself that a redirect would have to send again.
    static func hasBody(_ request: URLRequest) -> Bool {
        request.httpBody.map { !$0.isEmpty } ?? (request.httpBodyStream != nil)
    }

    private static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
