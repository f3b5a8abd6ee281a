import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCache {
    /// Whether `request` may be revalidated in the background. That request goes straight to the
    /// revalidation transport, past the client's ``RedirectPolicy``; one that would carry credentials
    /// over plain `http` is revalidated in the foreground instead, where the client's policy decides.
    static func mayRevalidateInBackground(_ request: URLRequest) -> Bool {
        do {
            try RedirectPolicy.default.checkCleartextCredentials(request)
            return true
        } catch {
            return false
        }
    }

    /// Revalidates `stored` with `request` (made conditional on it) over `transport` in a task of
    /// its own, after the stale response was answered (RFC 5861 §3); at most one at a time per key,
    /// and none once `stored` is no longer what is stored.
    func revalidateInBackground(_ stored: CachedResponse, request: URLRequest, key: String, over transport: any HTTPTransport) {
        guard revalidating.withLock({ $0.insert(key).inserted }) else { return }
        // A revalidation that ended between reading `stored` and here has replaced it already: a
        // second one would ask the server again for what the first just brought.
        guard storage.responses(for: key).contains(stored) else {
            revalidating.withLock { _ = $0.remove(key) }
            return
        }
        let cache = self
        Task {
            await cache.refresh(stored, request: request, key: key, over: transport)
            cache.revalidating.withLock { _ = $0.remove(key) }
        }
    }

    /// Sends `request` and stores what it brings: a `304` updates `stored`, another storable
    /// response replaces it, anything else forgets it. A failure leaves it as it is.
    private func refresh(_ stored: CachedResponse, request: URLRequest, key: String, over transport: any HTTPTransport) async {
        let requestTime = now()
        // No client stands behind this request: the body is bounded as a client's would be by default.
        var transportRequest = TransportRequest(request)
        transportRequest.maximumBodySize = ResponseLimits.default.inMemory
        guard let received = try? await transport.data(for: transportRequest).withoutOutcomeHeader() else { return }
        let responseTime = now()
        let others = storage.responses(for: key).filter { $0 != stored && !$0.matchesVary(of: request) }
        if received.statusCode == 304 {
            let updated = Self.updated(stored, with: received, requestTime: requestTime, responseTime: responseTime)
            storage.setResponses((updated.map { [$0] } ?? []) + others, for: key)
            return
        }
        var candidate = CachedResponse(response: Self.storable(received), requestTime: requestTime, responseTime: responseTime)
        candidate.varyingRequestHeaders = CachedResponse.varyingHeaders(of: request, for: candidate)
        let isStorable = CachedResponse.isStorable(candidate, for: request, requestDirectives: Self.requestDirectives(of: request))
        storage.setResponses((isStorable ? [candidate] : []) + others, for: key)
    }
}
