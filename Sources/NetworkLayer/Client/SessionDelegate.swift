import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of every session ``NetworkClient`` creates; on Linux it steers FoundationNetworking
/// around two traps, and on Apple platforms it leaves URLSession's own behaviour alone.
///
/// - A 401 or 407 carrying a challenge (`WWW-Authenticate: Basic`, say) with no credential makes a
///   FoundationNetworking task hang past every timeout. The delegate cancels the challenge instead,
///   and ``URLSession/httpResponse(for:)`` turns the cancellation back into the 401 response.
/// - On a redirect that keeps the method (307 and 308, and 301 and 302 for methods other than
///   POST) FoundationNetworking sends the body empty. The delegate declines such redirects when
///   the request has a body (an upload task always has one), and the transport re-issues the
///   request, body included, to the new location.
///
/// It has no state: everything it decides comes from the task it is asked about.
final class SessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    #if canImport(FoundationNetworking)
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Credentials travel in the Authorization header: a credential storage lookup does not
            // match challenges on Linux, and default handling is what hangs.
            let isHTTPAuthentication = Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod)
            completionHandler(isHTTPAuthentication ? .cancelAuthenticationChallenge : .performDefaultHandling, nil)
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            // A redirect that turns the request into a GET (POST after 301, 302 or 303) drops the body
            // as HTTP says and is followed; one that keeps the method would be sent with an empty body.
            let current = task.currentRequest ?? task.originalRequest
            let carriesBody = task is URLSessionUploadTask || current.map(Self.hasBody) == true
            let keepsBody = carriesBody && HTTPMethod(rawValue: request.httpMethod ?? "GET").allowsRequestBody
            completionHandler(keepsBody ? nil : request)
        }

        /// The challenges that are cancelled; others (server trust) get the default handling.
        private static let httpAuthenticationMethods: Set<String> = [
            NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodDefault,
            NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
        ]

    #endif

    /// The redirects that can keep the method, and so must keep the body; 303 always turns into a GET.
    static let bodyRedirectStatusCodes: Set<Int> = [301, 302, 307, 308]

    /// The 401 or 407 behind a cancellation that the delegate made by refusing an authentication
    /// challenge, not the caller: the response the server actually sent (its body is lost on Linux).
    static func challengeResponse(of task: URLSessionTask, error: any Error) -> HTTPURLResponse? {
        #if canImport(FoundationNetworking)
            guard (error as? URLError)?.code == .cancelled,
                let response = task.response as? HTTPURLResponse,
                response.statusCode == 401 || response.statusCode == 407
            else { return nil }
            return response
        #else
            return nil
        #endif
    }

    /// Whether `request` sends a body that a redirect would have to send again.
    static func hasBody(_ request: URLRequest) -> Bool {
        request.httpBody.map { !$0.isEmpty } ?? (request.httpBodyStream != nil)
    }
}
