import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// The request to send again after a redirect that ``SessionDelegate`` declined so that the
    /// body would not be lost (307 and 308, or 301 and 302 for a method other than POST), or `nil`
    /// when `response` is not such a redirect.
    ///
    /// The method, headers and body stay; the URL is the `Location`, resolved against the response's
    /// URL. Credentials do not follow the request to another origin: `Authorization` and `Cookie`
    /// are dropped when the scheme, host or port changes. A streamed body cannot be sent twice, so
    /// its redirect is returned as it is. `carriesBody` says whether a body sent beside the request
    /// (an upload task's) is at stake; by default, whether the request has a non-empty `httpBody`.
    func redirected(by response: HTTPURLResponse, carriesBody: Bool? = nil) -> URLRequest? {
        redirected(
            status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"), from: response.url,
            carriesBody: carriesBody)
    }

    /// ``redirected(by:carriesBody:)-(HTTPURLResponse,_)`` for a response the client has already
    /// converted: the one a status failure carries.
    func redirected(by response: HTTPResponse, carriesBody: Bool? = nil) -> URLRequest? {
        redirected(status: response.statusCode, location: response.headers["Location"], from: response.url, carriesBody: carriesBody)
    }

    private func redirected(status: Int, location: String?, from responseURL: URL?, carriesBody: Bool?) -> URLRequest? {
        guard SessionDelegate.bodyRedirectStatusCodes.contains(status),
            carriesBody ?? !(httpBody ?? Data()).isEmpty,
            let location,
            let target = URL(string: location, relativeTo: responseURL ?? url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var request = self
        request.url = target
        if let url, !Self.sameOrigin(url, target) {
            request.setValue(nil, forHTTPHeaderField: "Authorization")
            request.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return request
    }

    private static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
