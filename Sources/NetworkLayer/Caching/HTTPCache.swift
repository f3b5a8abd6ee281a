import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111) as an interceptor: it answers `GET`s from stored responses while
/// they are fresh, revalidates stale ones with `If-None-Match` and `If-Modified-Since`, and behaves
/// the same over every transport.
///
/// Add it to a client's interceptors, before any that should see only what reaches the network:
///
/// ```swift
/// let client = NetworkClient { $0.interceptors = [HTTPCache()] }
/// ```
///
/// It serves the calls that take their body whole (`send`, `fetch`, `response`); streams, downloads
/// and calls with progress pass through untouched. A request with its own `If-None-Match` or a
/// single byte `Range` is answered from a fresh stored response (a `304`, a `206`); other
/// conditional requests go to the network untouched. A response that came from it carries an `Age` header and `X-NetworkLayer-Cache`, which
/// ``outcome(of:)`` reads: ``Outcome/hit``, ``Outcome/revalidated`` (a `304` confirmed it; the stored
/// body comes back with its stored status, `200` say) or ``Outcome/stale``.
public struct HTTPCache: Interceptor {
    /// How a response came from the cache.
    public enum Outcome: String, Sendable {
        /// Stored and fresh: nothing was sent.
        case hit = "HIT"
        /// Stored, and the server confirmed it with a `304 Not Modified`, whose headers were stored.
        case revalidated = "REVALIDATED"
        /// Stored and stale, served as the request's `max-stale` or a `stale-if-error` allowed.
        case stale = "STALE"
    }

    /// The header the cache adds to the responses it answers with: `X-NetworkLayer-Cache`, valued an
    /// ``Outcome``'s raw value (a name of its own, since CDNs send `X-Cache: HIT` of theirs).
    static let outcomeHeader = "X-NetworkLayer-Cache"

    /// Where the responses are kept.
    let storage: any HTTPCacheStorage
    /// What revalidates `stale-while-revalidate` responses in the background in place of the
    /// client's transport (tests give one); `nil` uses the client's.
    let revalidationTransport: (any HTTPTransport)?
    /// The clock ages are counted with.
    let now: @Sendable () -> Date
    /// The keys being revalidated in the background, so that each is revalidated once at a time.
    let revalidating = Locked(Set<String>())
    /// How refreshed credentials succeed each other, and the calls refused meanwhile.
    let partitions = Locked(CachePartitions())

    /// Creates a cache.
    /// - Parameters:
    ///   - storage: Where responses are kept; ``Storage/memory(capacity:)`` of 10 MiB by default.
    ///   - now: The present, for ages and freshness; the system clock by default (tests pass a fake one).
    public init(
        storage: Storage = .memory(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(storage: storage.backend, now: now)
    }

    /// Creates a cache over a storage of the library's own or a test's.
    init(storage: any HTTPCacheStorage, revalidationTransport: (any HTTPTransport)? = nil, now: @escaping @Sendable () -> Date = { Date() })
    {
        self.storage = storage
        self.revalidationTransport = revalidationTransport
        self.now = now
    }

    /// How `response` came from a cache, `nil` when it came from the network.
    public static func outcome(of response: HTTPResponse) -> Outcome? {
        response.headers[outcomeHeader].flatMap(Outcome.init(rawValue:))
    }

    /// Answers from the cache, revalidates, stores, or invalidates, as RFC 9111 says; see ``HTTPCache``.
    public func intercept(
        _ request: URLRequest,
        context: RequestContext,
        next: (URLRequest) async throws(APIError) -> TransportResponse
    ) async throws(APIError) -> TransportResponse {
        // What the network sends never claims to come from the cache.
        func send(_ request: URLRequest) async throws(APIError) -> TransportResponse {
            try await next(request).withoutOutcomeHeader()
        }
        let partition = partition(of: request, context: context)
        guard let url = request.url, let key = Self.key(for: url, partition: partition) else { return try await send(request) }
        switch request.httpMethod?.uppercased() ?? "GET" {
        case "GET":
            break
        case "HEAD":
            let received = try await send(request)
            updateMetadata(for: request, key: key, from: received.head)
            return received
        case "OPTIONS", "TRACE":
            return try await send(request)
        default:
            // An unsafe method's non-error response invalidates what is stored for its target (§4.4).
            let received = try await send(request)
            if (200..<400).contains(received.head.statusCode) { invalidate(url, partition: partition, after: received.head) }
            return received
        }
        let directives = Self.requestDirectives(of: request)
        // A request that says `no-store` wants nothing kept of it: it goes to the network untouched.
        if context.isStreamed || directives.contains("no-store") { return try await send(request) }
        let requestTime = now()
        let policy = request.cachePolicy
        if policy == .reloadIgnoringLocalCacheData || policy == .reloadIgnoringLocalAndRemoteCacheData {
            // Loaded from the server alone, and stored as any other response.
            return try await store(send(request), for: request, key: key, directives: directives, requestTime: requestTime)
        }
        let variants = storage.responses(for: key)
        let stored = variants.first { $0.matchesVary(of: request) }
        if policy == .returnCacheDataElseLoad || policy == .returnCacheDataDontLoad {
            // Whatever its age, as URLSession's policies say.
            if let stored {
                return Self.answer(
                    with: stored, stored.currentAge(at: requestTime) < stored.freshnessLifetime ? .hit : .stale, at: requestTime)
            }
            if policy == .returnCacheDataDontLoad { return TransportResponse(HTTPResponse(statusCode: 504, url: url)) }
        }
        if let conditional = Self.conditionalAnswer(to: request, from: stored, directives: directives, at: requestTime) {
            return conditional
        }
        if Self.conditionalFields.contains(where: { request.value(forHTTPHeaderField: $0) != nil }) {
            return try await send(request)
        }
        if let stored, policy != .reloadRevalidatingCacheData {
            switch Self.use(stored, directives: directives, at: requestTime) {
            case .fresh: return Self.answer(with: stored, .hit, at: requestTime)
            case .stale: return Self.answer(with: stored, .stale, at: requestTime)
            case .staleWhileRevalidate:
                if let transport = revalidationTransport ?? context.transport?.transport, Self.mayRevalidateInBackground(request) {
                    revalidateInBackground(stored, request: Self.conditional(request, on: stored), key: key, over: transport)
                    return Self.answer(with: stored, .stale, at: requestTime)
                }
            case .validate: break
            }
        }
        if directives.contains("only-if-cached") {
            return TransportResponse(HTTPResponse(statusCode: 504, url: url))
        }
        let received: TransportResponse
        do {
            received = try await send(stored.map { Self.conditional(request, on: $0) } ?? request)
        } catch {
            if let stored, error.isNetworkFailure, Self.staleIfErrorAllows(stored, directives: directives, at: now()) {
                return Self.answer(with: stored, .stale, at: now())
            }
            throw error
        }
        let responseTime = now()
        if [401, 403].contains(received.head.statusCode) {
            // A refused credential says nothing of the stored response: it stays, for the retry a
            // refresh makes, which revalidates it with the new credential.
            noteRefused(context, partition: partition)
            return received
        }
        if let stored, received.head.statusCode == 304 {
            guard let updated = Self.updated(stored, with: received.head, requestTime: requestTime, responseTime: responseTime) else {
                // The 304 is about another representation: forget ours and ask again, unconditionally.
                storage.setResponses(storage.responses(for: key).filter { $0 != stored }, for: key)
                return try await store(send(request), for: request, key: key, directives: directives, requestTime: requestTime)
            }
            storage.setResponses([updated] + storage.responses(for: key).filter { $0 != stored }, for: key)
            return Self.answer(with: updated, .revalidated, at: responseTime)
        }
        if let stored, [500, 502, 503, 504].contains(received.head.statusCode),
            Self.staleIfErrorAllows(stored, directives: directives, at: responseTime)
        {
            received.body.cancel()
            return Self.answer(with: stored, .stale, at: responseTime)
        }
        return try await store(received, for: request, key: key, directives: directives, requestTime: requestTime)
    }

    /// The request fields that make a request conditional or partial.
    static let conditionalFields = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]

    /// `request` made conditional on `stored`'s validators: `If-None-Match` its `ETag` (as the
    /// server sent it), `If-Modified-Since` its `Last-Modified`.
    static func conditional(_ request: URLRequest, on stored: CachedResponse) -> URLRequest {
        var conditional = request
        if let etag = stored.response.headers["ETag"] { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = stored.response.headers["Last-Modified"] {
            conditional.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        return conditional
    }

    /// Reads `received` whole and stores it when it may be (replacing the response stored for the
    /// same `Vary` values); returns it, its body in memory.
    private func store(
        _ received: TransportResponse, for request: URLRequest, key: String, directives: CacheControl, requestTime: Date
    ) async throws(APIError) -> TransportResponse {
        let response = try await received.collected()
        var candidate = CachedResponse(response: Self.storable(response), requestTime: requestTime, responseTime: now())
        candidate.varyingRequestHeaders = CachedResponse.varyingHeaders(of: request, for: candidate)
        let variants = storage.responses(for: key)
        let others = variants.filter { !$0.matchesVary(of: request) }
        if CachedResponse.isStorable(candidate, for: request, requestDirectives: directives) {
            storage.setResponses([candidate] + others, for: key)
        } else if others.count < variants.count {
            // A newer response that may not be stored replaces the stored one: that is not kept either.
            storage.setResponses(others, for: key)
        }
        return TransportResponse(response)
    }

    /// Updates the stored `GET` response a `HEAD`'s `200` describes, when their `ETag`s or
    /// `Last-Modified` dates are the same (RFC 9111 §4.3.5), as a `304` would.
    private func updateMetadata(for request: URLRequest, key: String, from head: HTTPResponse) {
        let variants = storage.responses(for: key)
        guard head.statusCode == 200, let stored = variants.first(where: { $0.matchesVary(of: request) }) else { return }
        let sameTag = head.headers["ETag"].map { $0 == stored.response.headers["ETag"] } ?? false
        let sameDate = head.headers["Last-Modified"].map { $0 == stored.response.headers["Last-Modified"] } ?? false
        guard sameTag || sameDate,
            let updated = Self.updated(stored, with: head, requestTime: stored.requestTime, responseTime: stored.responseTime)
        else { return }
        storage.setResponses([updated] + variants.filter { $0 != stored }, for: key)
    }

    /// Forgets what `partition` stores for `url`, and for the `Location` and `Content-Location` of
    /// `response` when they are on the same origin (RFC 9111 §4.4).
    private func invalidate(_ url: URL, partition: String, after response: HTTPResponse) {
        if let key = Self.key(for: url, partition: partition) { storage.setResponses([], for: key) }
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name], let target = URL(string: value, relativeTo: url)?.absoluteURL,
                target.scheme?.lowercased() == url.scheme?.lowercased(), target.host?.lowercased() == url.host?.lowercased(),
                target.port == url.port, let key = Self.key(for: target, partition: partition)
            else { continue }
            storage.setResponses([], for: key)
        }
    }

    /// The key of a URL: the URL without its fragment.
    static func key(for url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.fragment = nil
        return components.string
    }
}
