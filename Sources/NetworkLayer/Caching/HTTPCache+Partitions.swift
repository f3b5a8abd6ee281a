import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which credential's responses a stored entry belongs to, and how a refreshed credential keeps them.
struct CachePartitions: Sendable {
    /// A refreshed credential's partition → the partition it succeeds (its session's first).
    var successors: [String: String] = [:]
    /// A call whose attempt was refused (`401`, `403`) → the partition it was sent with.
    var refused: [Int: String] = [:]

    /// The most successions and refused calls kept; past it the oldest knowledge is dropped, which
    /// costs cache hits, never correctness.
    static let limit = 1024
}

extension HTTPCache {
    /// The partition of `request`: `""` without an `Authorization` field, else a digest of its
    /// value, or the partition that credential succeeds after a refresh.
    func partition(of request: URLRequest) -> String {
        guard let authorization = request.value(forHTTPHeaderField: "Authorization") else { return "" }
        let own = SHA256.hexDigest(authorization)
        return partitions.withLock { $0.successors[own] } ?? own
    }

    /// The partition of `request` in a call: on a retry after a refused attempt, a new credential
    /// succeeds the refused one's partition (a refresh of the same session: the app's own chain
    /// sent the same call again with it), so its entries are found and revalidated.
    func partition(of request: URLRequest, context: RequestContext) -> String {
        guard context.attempt > 1, let authorization = request.value(forHTTPHeaderField: "Authorization") else {
            return partition(of: request)
        }
        let own = SHA256.hexDigest(authorization)
        return partitions.withLock { partitions in
            if let existing = partitions.successors[own] { return existing }
            guard let refused = partitions.refused[context.requestID], refused != own, !refused.isEmpty else { return own }
            if partitions.successors.count >= CachePartitions.limit { partitions.successors.removeAll() }
            partitions.successors[own] = refused
            return refused
        }
    }

    /// Notes that the call `context` belongs to was refused while sent with `partition`.
    func noteRefused(_ context: RequestContext, partition: String) {
        partitions.withLock { partitions in
            if partitions.refused.count >= CachePartitions.limit { partitions.refused.removeAll() }
            partitions.refused[context.requestID] = partition
        }
    }

    /// Forgets a finished call.
    public func observe(_ event: NetworkEvent) {
        guard case .requestFinished(let metrics) = event else { return }
        partitions.withLock { _ = $0.refused.removeValue(forKey: metrics.requestID) }
    }

    /// The storage key of `url` in `partition`: the URL without its fragment, after the partition.
    static func key(for url: URL, partition: String) -> String? {
        guard let key = key(for: url) else { return nil }
        return partition.isEmpty ? key : partition + " " + key
    }

    /// Removes every response stored for the credential sent as `authorization` (an `Authorization`
    /// field's value, `Bearer …` say) and for the credentials refreshed from it: call it at sign-out.
    /// - Parameter authorization: The `Authorization` value the responses were fetched with.
    public func removeResponses(authorization: String) {
        let own = SHA256.hexDigest(authorization)
        let partition = partitions.withLock { partitions in
            let partition = partitions.successors[own] ?? own
            partitions.successors = partitions.successors.filter { $0.value != partition }
            return partition
        }
        storage.removeResponses { $0.hasPrefix(partition + " ") }
    }

    /// Removes every stored response, of every credential.
    public func removeAll() {
        partitions.withLock { $0 = CachePartitions() }
        storage.removeResponses { _ in true }
    }
}
