import Foundation
import NetworkLayerTesting
import TestSupport
import Testing

@testable import NetworkLayer

/// A stale answer read just before a background revalidation stored what it brought must not start a
/// second revalidation of what is no longer stored.
@Suite("HTTPCache background revalidation race")
struct HTTPCacheRevalidationRaceTests {
    @Test("A request that read the stale response just before the background revalidation replaced it starts no second one")
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func noSecondRevalidation() async throws {
        let harness = CacheHarness()
        let storage = HookedStorage(base: harness.storage)
        let gate = GatedTransport(base: harness.stubs)
        let cache = HTTPCache(storage: storage, revalidationTransport: gate, now: { [clock = harness.clock] in clock.now })
        let client = NetworkClient(transport: harness.stubs, configuration: ClientConfiguration(interceptors: [cache]))
        try await harness.storeStaleWhileRevalidate(through: client)
        // Answered stale; its revalidation waits at the gate.
        let stale = try await client.response(for: TestEndpoint(), as: String.self)
        #expect(stale.value == "v1")

        // The next request reads the stale response; then, before it decides, the revalidation ends.
        // The hook blocks while it waits, so the request runs off the cooperative threads.
        storage.afterNextRead {
            gate.gate.open()
            let deadline = Date().addingTimeInterval(5)
            while cache.revalidating.withLock({ !$0.isEmpty }), Date() < deadline { usleep(1_000) }
        }
        let third = try await onOwnThread { try await client.response(for: TestEndpoint(), as: String.self) }
        #expect(third.value == "v1")
        _ = await eventually { cache.revalidating.withLock { $0.isEmpty } }
        #expect(harness.sent == 2, "\(harness.sent) requests sent")
        #expect(try await client.response(for: TestEndpoint(), as: String.self).value == "v2")
    }
}

/// A storage that runs a hook once, right after a read, before handing over what it read.
private final class HookedStorage: HTTPCacheStorage {
    let base: any HTTPCacheStorage
    private let hook = Locked<(@Sendable () -> Void)?>(nil)

    init(base: any HTTPCacheStorage) {
        self.base = base
    }

    /// Runs `hook` after the next read.
    func afterNextRead(_ hook: @escaping @Sendable () -> Void) {
        self.hook.withLock { $0 = hook }
    }

    func responses(for key: String) -> [CachedResponse] {
        let responses = base.responses(for: key)
        let hook = hook.withLock { hook in
            defer { hook = nil }
            return hook
        }
        hook?()
        return responses
    }

    func setResponses(_ responses: [CachedResponse], for key: String) {
        base.setResponses(responses, for: key)
    }

    func removeResponses(where shouldRemove: (String) -> Bool) {
        base.removeResponses(where: shouldRemove)
    }
}

/// A transport that holds every request at `gate` until it is opened, then sends it through `base`.
private struct GatedTransport: HTTPTransport {
    let base: any HTTPTransport
    let gate = Gate()

    func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
        await gate.wait()
        return try await base.send(request)
    }
}
