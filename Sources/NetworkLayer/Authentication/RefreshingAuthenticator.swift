import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``Authenticator`` that refreshes its credential when the server rejects it, once for all
/// the requests that were rejected together, and retries them with the new one.
///
/// ```swift
/// let authClient = NetworkClient()    // without the authenticator: its refresh call never waits for itself
/// let auth = RefreshingAuthenticator(token: storedToken) { expired in
///     // runs once, however many requests got 401 together
///     try await authClient.send(AuthAPI.refresh(refreshToken: refreshToken), as: Token.self).accessToken
/// }
/// let client = NetworkClient { $0.interceptors = [auth, RetryPolicy()] }
/// ```
///
/// On a `401` (see `isUnauthorized`) it looks at what changed since the rejected request read its
/// credential. If a newer credential has arrived since, the request is retried with it; if a refresh is
/// under way, the request waits for it; otherwise it starts the refresh. Either way the refresh runs
/// once for every request rejected together. A request gets at most one refresh: a second `401` is
/// its final error, so a rejected fresh credential cannot loop. A failed refresh fails every request
/// sent before it ended with ``APIError/credentialRefreshFailed(_:)``; a request sent afterwards that
/// is rejected tries again. With no credential yet, the first request refreshes before it is sent.
/// A request cancelled while it waits for a refresh ends at once with ``APIError/cancelled``; the
/// refresh goes on for the others. The credential lives behind a lock; copies of the authenticator share it.
///
/// A request that does not require authentication (``CallOptions/requiresAuthentication`` `false`: the
/// sign-in call, a public endpoint) gets no credential and triggers no refresh, not even while there is
/// no credential yet, and its `401` is left to the next interceptor. Send the refresh's own call
/// through a client without this authenticator: through this one it would wait for its own refresh.
public struct RefreshingAuthenticator<Credential: Sendable>: Authenticator {
    private let store: CredentialStore<Credential>
    private let apply: @Sendable (Credential, inout URLRequest) -> Void
    private let isUnauthorized: @Sendable (APIError) -> Bool

    /// Creates an authenticator for any kind of credential.
    /// - Parameters:
    ///   - credential: The credential to start with; `nil` refreshes before the first request.
    ///   - apply: Puts a credential on a request, for example as a header.
    ///   - isUnauthorized: Whether an attempt's error means the credential was rejected; a `401` status by default.
    ///   - refresh: Gets a new credential, given the current one (`nil` if none). It runs alone: requests
    ///     that need a refresh meanwhile wait for its result. If it throws, they fail with
    ///     ``APIError/credentialRefreshFailed(_:)`` carrying its error.
    public init(
        credential: Credential?,
        apply: @escaping @Sendable (Credential, inout URLRequest) -> Void,
        isUnauthorized: @escaping @Sendable (APIError) -> Bool = { $0.statusCode == 401 },
        refresh: @escaping @Sendable (Credential?) async throws -> Credential
    ) {
        self.store = CredentialStore(credential: credential, refresh: refresh)
        self.apply = apply
        self.isUnauthorized = isUnauthorized
    }

    /// The current credential.
    public var credential: Credential? {
        store.credential
    }

    /// Replaces the credential, for example after signing in again (`nil` after signing out, so the next request refreshes).
    public func setCredential(_ credential: Credential?) {
        store.set(credential)
    }

    /// Applies the current credential, first waiting for a refresh under way (or starting one if there is
    /// no credential); a request that does not require authentication is returned unchanged.
    /// - Throws: ``APIError/credentialRefreshFailed(_:)`` when that refresh fails.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard context.requiresAuthentication else { return request }
        var request = request
        apply(try await store.credential(for: context.requestID), &request)
        return request
    }

    /// Applies the current credential, like ``adapt(_:context:)``, for use outside a client.
    public func authenticate(_ request: inout URLRequest) async throws {
        request = try await adapt(request, context: RequestContext(requestID: 0))
    }

    /// On the first `401` of a request, retries with a newer credential, refreshing it if needed (once
    /// for everyone); anything else, and a request that does not require authentication, is left to the next interceptor.
    public func retry(_ request: URLRequest, for error: APIError, context: RequestContext) async -> RetryDecision {
        guard context.requiresAuthentication, isUnauthorized(error), !context.previousErrors.contains(where: isUnauthorized) else {
            return .doNotRetry
        }
        do throws(APIError) {
            try await store.renew(rejected: context.requestID)
            return .retry
        } catch {
            return .fail(error)
        }
    }

    /// Forgets a finished request.
    public func observe(_ event: NetworkEvent) {
        if case .requestFinished(let metrics) = event {
            store.forget(metrics.requestID)
        }
    }
}

extension RefreshingAuthenticator where Credential == String {
    /// Creates an authenticator that sends `Authorization: Bearer <token>`.
    /// - Parameters:
    ///   - token: The token to start with; `nil` refreshes before the first request.
    ///   - refresh: Gets a new token, given the current one; it runs once for all requests rejected together.
    public init(token: String?, refresh: @escaping @Sendable (String?) async throws -> String) {
        self.init(
            credential: token,
            apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
            refresh: refresh
        )
    }
}
