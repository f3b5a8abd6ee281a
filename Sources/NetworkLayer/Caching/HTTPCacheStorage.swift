import Foundation

/// A response an ``HTTPCache`` keeps, with what it needs to tell its age and which requests it answers.
struct CachedResponse: Sendable, Equatable {
    /// The stored response: status, headers (updated by each `304`), body and URL.
    var response: HTTPResponse
    /// When the request that brought this response (or last revalidated it) was sent.
    var requestTime: Date
    /// When that response arrived.
    var responseTime: Date
    /// The request's values of the headers the response's `Vary` names (absent ones left out): a
    /// later request must send the same values to be answered with it.
    var varyingRequestHeaders: HTTPHeaders

    /// Creates a stored response.
    /// - Parameters:
    ///   - response: The response, with its body.
    ///   - requestTime: When its request was sent.
    ///   - responseTime: When it arrived.
    ///   - varyingRequestHeaders: The request headers its `Vary` names; none by default.
    init(response: HTTPResponse, requestTime: Date, responseTime: Date, varyingRequestHeaders: HTTPHeaders = [:]) {
        self.response = response
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyingRequestHeaders = varyingRequestHeaders
    }

    /// Roughly the bytes it takes: its body, headers and URL.
    var cost: Int {
        response.body.count + response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            + (response.url?.absoluteString.utf8.count ?? 0)
            + varyingRequestHeaders.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}

/// Where an ``HTTPCache`` keeps its responses: each URL (its key) has a list of responses, one per
/// set of request headers its `Vary` names.
///
/// Implementations must be safe to call from many tasks at once. ``MemoryCacheStorage`` is the one
/// the library provides.
protocol HTTPCacheStorage: Sendable {
    /// The responses stored for `key`, most recently stored first; none when there are none.
    func responses(for key: String) -> [CachedResponse]
    /// Replaces the responses stored for `key` with `responses` (none removes the key).
    func setResponses(_ responses: [CachedResponse], for key: String)
    /// Removes the responses of every key for which `shouldRemove` is `true`.
    func removeResponses(where shouldRemove: (String) -> Bool)
}

/// Keeps responses in memory, up to a number of bytes, forgetting the least recently used first.
///
/// A key counts as used when it is read or written. A set of responses larger than the whole
/// capacity is not kept.
final class MemoryCacheStorage: HTTPCacheStorage {
    private struct Entry {
        var responses: [CachedResponse]
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalCost = 0
        var clock: UInt64 = 0
    }

    /// The most bytes it keeps (bodies, headers and URLs counted).
    let capacity: Int
    private let state = Locked(State())

    /// Creates an empty store.
    /// - Parameter capacity: The most bytes it keeps; 10 MiB by default.
    init(capacity: Int = 10 * 1024 * 1024) {
        self.capacity = max(0, capacity)
    }

    /// The bytes it holds now.
    var totalCost: Int { state.withLock { $0.totalCost } }

    /// The responses stored for `key`, which counts as a use of it.
    func responses(for key: String) -> [CachedResponse] {
        state.withLock { state in
            guard var entry = state.entries[key] else { return [] }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.responses
        }
    }

    /// Removes the responses of every key for which `shouldRemove` is `true`.
    func removeResponses(where shouldRemove: (String) -> Bool) {
        state.withLock { state in
            for (key, entry) in state.entries where shouldRemove(key) {
                state.entries.removeValue(forKey: key)
                state.totalCost -= entry.cost
            }
        }
    }

    /// Replaces the responses of `key`, then forgets least recently used keys until the store fits.
    func setResponses(_ responses: [CachedResponse], for key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.totalCost -= old.cost }
            let cost = responses.reduce(key.utf8.count) { $0 + $1.cost }
            guard !responses.isEmpty, cost <= capacity else { return }
            state.clock += 1
            state.entries[key] = Entry(responses: responses, cost: cost, lastUse: state.clock)
            state.totalCost += cost
            // A linear scan per eviction: fine for the thousands of entries an app's memory cache holds.
            while state.totalCost > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.totalCost -= oldest.value.cost
            }
        }
    }
}
