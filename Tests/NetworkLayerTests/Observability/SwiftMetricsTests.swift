#if SwiftMetrics
    import CoreMetrics
    import Foundation
    import MetricsTestKit
    import NetworkLayer
    import TestSupport
    import Testing

    /// The `http.client.*` metrics of calls, by OpenTelemetry's conventions, with swift-metrics' test backend.
    @Suite("Metrics by OpenTelemetry's HTTP client conventions")
    struct SwiftMetricsTests {
        /// `dimensions` as a dictionary, for comparing.
        static func dictionary(_ dimensions: [(String, String)]) -> [String: String] {
            Dictionary(dimensions, uniquingKeysWith: { $1 })
        }

        @Test(
            "Each request sent is timed with the conventions' dimensions, active requests go up and down, body sizes are recorded",
            arguments: TransportKind.all)
        func durationActiveAndSizes(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let metrics = TestMetrics()
            let client = transport.makeClient { _ in }
            _ = try await withMetricsFactory(metrics) {
                try await client.send(server.endpoint("/notes/42", template: "/notes/{id}"), as: ObservedNote.self)
            }

            let timers = metrics.timers(label: "http.client.request.duration")
            try #require(timers.count == 1)
            #expect(timers[0].values.count == 1)
            #expect(timers[0].displayUnit == .seconds)
            var expected = [
                "http.request.method": "GET", "server.address": "127.0.0.1", "server.port": String(server.port), "url.scheme": "http",
                "url.template": "/notes/{id}", "http.response.status_code": "200",
            ]
            // AsyncHTTPClient says which HTTP version answered; FoundationNetworking does not.
            if !transport.isURLSession { expected["network.protocol.version"] = "1.1" }
            #expect(Self.dictionary(timers[0].dimensions) == expected)
            let active = metrics.meters(label: "http.client.active_requests")
            #expect(active.map(\.values) == [[1, 0]])
            #expect(active.allSatisfy { Self.dictionary($0.dimensions)["http.response.status_code"] == nil })
            #expect(metrics.recorders(label: "http.client.response.body.size").map(\.values) == [[8]])
            #expect(metrics.recorders(label: "http.client.request.body.size").map(\.values) == [[0]])
        }

        @Test(
            "A redirect hop and a retry are timed each; a 5xx or 4xx carries error.type, a refused connection its name",
            arguments: TransportKind.all)
        func errorsAndResends(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let closed = try ObservedServer()
            closed.server.stop()
            let metrics = TestMetrics()
            let client = transport.makeClient { $0.interceptors = [RetryPolicy(random: { 0 })] }
            try await withMetricsFactory(metrics) {
                _ = try await client.send(server.endpoint("/moved"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/flaky"), as: ObservedNote.self)
                await #expect(throws: APIError.self) { try await client.send(server.endpoint("/missing"), as: ObservedNote.self) }
                await #expect(throws: APIError.self) {
                    try await transport.makeClient { _ in }.send(closed.endpoint("/notes/1"), as: ObservedNote.self)
                }
            }
            let timed = metrics.timers(label: "http.client.request.duration").flatMap { timer in
                Array(repeating: Self.dictionary(timer.dimensions), count: timer.values.count)
            }
            #expect(timed.count == 6, "302, 200, 503, 200, 404, and the refused one")
            #expect(timed.filter { $0["error.type"] == "503" && $0["http.response.status_code"] == "503" }.count == 1)
            #expect(timed.filter { $0["error.type"] == "404" }.count == 1)
            #expect(timed.filter { $0["error.type"] == "cannot_connect_to_host" && $0["http.response.status_code"] == nil }.count == 1)
            #expect(timed.filter { $0["http.response.status_code"] == "302" }.count == 1)
            #expect(metrics.meters(label: "http.client.active_requests").allSatisfy { $0.values.last == 0 })
        }

        /// A backend that makes no meters of its own: swift-metrics' `AccumulatingMeter` counts each
        /// meter's ups and downs, into this recorder.
        final class MeterlessFactory: MetricsFactory {
            let backend = TestMetrics()

            func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
                backend.makeCounter(label: label, dimensions: dimensions)
            }

            func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
                backend.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
            }

            func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
                backend.makeTimer(label: label, dimensions: dimensions)
            }

            func destroyCounter(_ handler: any CounterHandler) { backend.destroyCounter(handler) }
            func destroyRecorder(_ handler: any RecorderHandler) { backend.destroyRecorder(handler) }
            func destroyTimer(_ handler: any TimerHandler) { backend.destroyTimer(handler) }
        }

        @Test(
            "Active requests count every request in flight, on a backend that counts in the meter itself", arguments: TransportKind.all)
        func activeRequestsAcrossRequests(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let factory = MeterlessFactory()
            let client = transport.makeClient { _ in }
            try await withMetricsFactory(factory) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<10 {
                        group.addTask { _ = try await client.send(server.endpoint("/slow"), as: ObservedNote.self) }
                    }
                    try await group.waitForAll()
                }
            }
            let values = factory.backend.recorders(label: "http.client.active_requests").flatMap(\.values)
            #expect(values.count == 20)
            #expect((values.max() ?? 0) >= 5, "the requests overlapped, and each one counted on the same meter: \(values)")
            #expect(values.last == 0)
        }

        @Test("A cache's hit sends nothing and records nothing")
        func cacheHitRecordsNothing() async throws {
            let server = try ObservedServer()
            let metrics = TestMetrics()
            let client = TransportKind.urlSession.makeClient { $0.interceptors = [HTTPCache()] }
            try await withMetricsFactory(metrics) {
                _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
                _ = try await client.send(server.endpoint("/cached"), as: ObservedNote.self)
            }
            #expect(metrics.timers(label: "http.client.request.duration").map(\.values.count) == [1])
            #expect(metrics.recorders(label: "http.client.response.body.size").map(\.values.count) == [1])
        }

        @Test("No dimension carries a path, an id, a query or a credential: only the conventions' names", arguments: TransportKind.all)
        func lowCardinalityOnly(transport: TransportKind) async throws {
            let server = try ObservedServer()
            let metrics = TestMetrics()
            let client = transport.makeClient { $0.interceptors = [BearerTokenAuthenticator(token: "secret-bearer"), CookieJar()] }
            try await withMetricsFactory(metrics) {
                for id in 1...5 {
                    var endpoint = server.endpoint("/notes/\(id)")
                    endpoint.task = .requestParameters(urlParameters: ["token": "secret-\(id)"])
                    _ = try await client.send(endpoint, as: ObservedNote.self)
                }
            }
            let all = metrics.timers.map(\.dimensions) + metrics.meters.map(\.dimensions) + metrics.recorders.map(\.dimensions)
            let allowed: Set = [
                "http.request.method", "server.address", "server.port", "url.scheme", "url.template", "http.response.status_code",
                "error.type", "network.protocol.version",
            ]
            #expect(all.allSatisfy { $0.allSatisfy { allowed.contains($0.0) } })
            #expect(!"\(all)".contains("secret") && !"\(all)".contains("/notes"))
            #expect(metrics.timers(label: "http.client.request.duration").count == 1, "five calls, one series")
        }
    }
#endif
