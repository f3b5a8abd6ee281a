/// The credential of a ``RefreshingAuthenticator``, the one refresh that may be under way, and
/// which credential each request in flight was sent with.
///
/// Every change bumps an epoch: a refresh ending either way, or ``set(_:)``. A request remembers
/// the epoch at which it read the credential, so when it is rejected the store knows what happened
/// since: a newer credential (retry with it), only failed refreshes (fail with the last one's
/// error), or nothing (refresh, or join the refresh under way). A refresh runs in its own task, so
/// a waiting caller that is cancelled does not cancel it for the others: that caller ends at once
/// with ``APIError/cancelled``. The refresh's result is stored before any waiter resumes. A request
/// the refresh itself sends through this store (its authenticator) would wait for its own refresh: it
/// fails at once instead.
final class CredentialStore<Credential: Sendable>: Sendable {
    private struct State {
        var credential: Credential?
        var epoch = 0
        /// The epoch at which `credential` was stored.
        var credentialEpoch = 0
        /// The error of the last refresh, if it failed.
        var lastError: APIError?
        var refreshing: Task<Credential, any Error>?
        /// The epoch at which each request in flight last read the credential, by request ID.
        var sentEpochs: [Int: Int] = [:]
    }

    /// What a caller does once it has looked at the state.
    private enum Step {
        case use(Credential)
        case wait(Task<Credential, any Error>)
        case fail(APIError)
    }

    private let state: Locked<State>
    private let refresh: @Sendable (Credential?) async throws -> Credential

    init(credential: Credential?, refresh: @escaping @Sendable (Credential?) async throws -> Credential) {
        self.state = Locked(State(credential: credential))
        self.refresh = refresh
    }

    /// The stored credential.
    var credential: Credential? {
        state.withLock { $0.credential }
    }

    /// Replaces the credential; requests rejected with the old one are retried with this one.
    func set(_ credential: Credential?) {
        state.withLock { state in
            state.epoch += 1
            state.credential = credential
            state.credentialEpoch = state.epoch
        }
    }

    /// The credential for request `requestID` to send: after any refresh under way, or from a new
    /// refresh if there is none yet. Remembers the epoch it was read at.
    func credential(for requestID: Int) async throws(APIError) -> Credential {
        let isOwnRefresh = isInsideOwnRefresh
        while true {
            let step = state.withLock { state -> Step in
                if let refreshing = state.refreshing { return isOwnRefresh ? .fail(Self.selfWaitError) : .wait(refreshing) }
                guard let credential = state.credential else { return .wait(startRefresh(&state)) }
                state.sentEpochs[requestID] = state.epoch
                return .use(credential)
            }
            switch step {
            case .use(let credential): return credential
            case .wait(let refresh): _ = try await Self.value(of: refresh)
            case .fail(let error): throw error
            }
        }
    }

    /// Makes sure request `requestID`, rejected with the credential it read, is retried only with a
    /// newer one: returns if there is one, joins the refresh under way, fails with the error of a refresh
    /// that failed since the request was sent, and otherwise refreshes.
    func renew(rejected requestID: Int) async throws(APIError) {
        let isOwnRefresh = isInsideOwnRefresh
        let step = state.withLock { state -> Step in
            if let refreshing = state.refreshing { return isOwnRefresh ? .fail(Self.selfWaitError) : .wait(refreshing) }
            let sent = state.sentEpochs[requestID] ?? state.epoch
            if state.credentialEpoch > sent, let credential = state.credential { return .use(credential) }
            if state.epoch > sent, let error = state.lastError { return .fail(error) }
            return .wait(startRefresh(&state))
        }
        switch step {
        case .use: return
        case .wait(let refresh): _ = try await Self.value(of: refresh)
        case .fail(let error): throw error
        }
    }

    /// Forgets request `requestID` once it has finished.
    func forget(_ requestID: Int) {
        _ = state.withLock { $0.sentEpochs.removeValue(forKey: requestID) }
    }

    /// Starts the refresh; called with the lock held, so the task cannot store its result before `refreshing` is set.
    private func startRefresh(_ state: inout State) -> Task<Credential, any Error> {
        let old = state.credential
        let startEpoch = state.credentialEpoch
        let task = Task { [refresh, self] in
            let result: Result<Credential, APIError>
            do {
                let scope = RefreshScope.stores + [ObjectIdentifier(self)]
                result = .success(try await RefreshScope.$stores.withValue(scope) { try await refresh(old) })
            } catch {
                result = .failure(Self.refreshError(error))
            }
            self.state.withLock { state in
                state.epoch += 1
                state.refreshing = nil
                switch result {
                case .success(let credential) where state.credentialEpoch == startEpoch:
                    state.credential = credential
                    state.credentialEpoch = state.epoch
                    state.lastError = nil
                case .success:
                    break  // `set` replaced the credential meanwhile; it wins.
                case .failure(let error):
                    state.lastError = error
                }
            }
            return try result.get()
        }
        state.refreshing = task
        return task
    }

    /// Whether the current task is running this store's refresh.
    private var isInsideOwnRefresh: Bool {
        RefreshScope.stores.contains(ObjectIdentifier(self))
    }

    /// The failure of a request that the refresh sent through its own authenticator.
    static var selfWaitError: APIError { .credentialRefreshFailed(RefreshWaitsForItself()) }

    private static func refreshError(_ error: any Error) -> APIError {
        if let error = error as? APIError, case .credentialRefreshFailed = error { return error }
        return .credentialRefreshFailed(error)
    }

    /// The refresh's credential; ``APIError/cancelled`` at once when the waiting caller is cancelled,
    /// leaving the refresh running for the others.
    private static func value(of task: Task<Credential, any Error>) async throws(APIError) -> Credential {
        switch await task.resultUnlessCancelled() {
        case .waiterCancelled:
            throw .cancelled
        case .finished(.success(let credential)):
            return credential
        case .finished(.failure(let error)):
            throw refreshError(error)
        }
    }
}

/// The credential stores whose refresh the current task runs.
private enum RefreshScope {
    @TaskLocal static var stores: [ObjectIdentifier] = []
}

/// The error a refresh fails with when it sends a request through the authenticator it refreshes.
struct RefreshWaitsForItself: Error, CustomStringConvertible {
    var description: String {
        "the refresh sent a request through the authenticator it refreshes, which would wait for itself; "
            + "send it through a client without that authenticator, or from an endpoint whose requiresAuthentication is false"
    }
}
