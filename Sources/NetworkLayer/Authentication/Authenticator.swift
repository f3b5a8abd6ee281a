import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``Interceptor`` that adds credentials to every attempt of a request, in place.
///
/// Implement ``authenticate(_:)``; the authenticator adapts each attempt with it, so a retry
/// carries the credential current at that moment. Throwing stops the request before it is sent.
/// A request whose ``RequestContext/requiresAuthentication`` is `false` (a sign-in call, a public
/// endpoint: see ``CallOptions/requiresAuthentication``) is left as it is.
///
/// ```swift
/// struct APIKey: Authenticator {
///     let key: String
///     func authenticate(_ request: inout URLRequest) async throws {
///         request.setValue(key, forHTTPHeaderField: "X-API-Key")
///     }
/// }
/// ```
public protocol Authenticator: Interceptor {
    /// Adds credentials to `request`, for example an `Authorization` header.
    func authenticate(_ request: inout URLRequest) async throws
}

extension Authenticator {
    /// Returns `request` after ``authenticate(_:)``, or unchanged when it does not require authentication.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard context.requiresAuthentication else { return request }
        var request = request
        try await authenticate(&request)
        return request
    }
}

/// Sends `Authorization: Bearer <token>` with every request: the one way to send a bearer token.
///
/// ```swift
/// let client = NetworkClient { $0.interceptors = [BearerTokenAuthenticator(token: "abc123")] }
/// let fromKeychain = BearerTokenAuthenticator { try await keychain.token() }
/// ```
///
/// To refresh an expired token on `401`, use ``RefreshingAuthenticator`` instead.
public struct BearerTokenAuthenticator: Authenticator {
    private let token: @Sendable () async throws -> String

    /// Sends a fixed token.
    public init(token: String) {
        self.token = { token }
    }

    /// Asks `token` for the token before every attempt; if it throws, the request is not sent.
    public init(token: @escaping @Sendable () async throws -> String) {
        self.token = token
    }

    /// Sets `Authorization: Bearer <token>`.
    public func authenticate(_ request: inout URLRequest) async throws {
        request.setValue("Bearer \(try await token())", forHTTPHeaderField: "Authorization")
    }
}

/// Sends `Authorization: Basic <base64(username:password)>` (RFC 7617) with every request.
///
/// Sending the credentials up front also keeps clear of a FoundationNetworking bug: on Linux, a
/// request that meets a `401` with `WWW-Authenticate: Basic` while carrying no credentials can hang.
public struct BasicAuthenticator: Authenticator {
    private let header: String

    /// Creates an authenticator for a user name and password (UTF-8).
    public init(username: String, password: String) {
        header = HTTPHeader.basicAuthorization(username: username, password: password).value
    }

    /// Sets `Authorization: Basic …`.
    public func authenticate(_ request: inout URLRequest) async throws {
        request.setValue(header, forHTTPHeaderField: "Authorization")
    }
}
