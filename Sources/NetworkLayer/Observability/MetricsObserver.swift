#if SwiftMetrics
    import CoreMetrics
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Records OpenTelemetry's HTTP client metrics for one call, for each request it sends (each retry
    /// and redirect hop alike; a cache's hit sends none):
    ///
    /// - `http.client.request.duration`, a timer (seconds), from the request going to the transport until
    ///   the transport answered (at the head for a streamed body, once it is in for a collected one) or failed;
    /// - `http.client.active_requests`, a meter, up while a request waits for that;
    /// - `http.client.request.body.size` and `http.client.response.body.size`, recorders (bytes), of the
    ///   request that ended an attempt.
    ///
    /// Their dimensions are the conventions' and of low cardinality only (``HTTPClientConventions``).
    final class MetricsObserver: Interceptor {
        let factory: any MetricsFactory
        let template: String?
        /// The conventions of the call's last request sent, for its body sizes; `nil` while none was.
        private let lastSent = Locked<(HTTPClientConventions, Int?, HTTPVersionNumber?)?>(nil)

        init(factory: any MetricsFactory, template: String?) {
            self.factory = factory
            self.template = template
        }

        func intercept(
            _ request: URLRequest,
            context: RequestContext,
            next: (URLRequest) async throws(APIError) -> TransportResponse
        ) async throws(APIError) -> TransportResponse {
            let conventions = HTTPClientConventions(request: request, template: template)
            let active = ActiveRequests.meter(conventions.activeDimensions, factory: factory)
            active.increment()
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                let response = try await next(request)
                record(
                    conventions, active: active, since: started, status: response.head.statusCode, version: response.head.protocolVersion,
                    error: nil)
                return response
            } catch {
                record(conventions, active: active, since: started, status: nil, version: nil, error: error)
                throw error
            }
        }

        /// Ends a request sent: the meter down, its duration recorded with its status or error.
        private func record(
            _ conventions: HTTPClientConventions, active: Meter, since started: UInt64, status: Int?, version: HTTPVersionNumber?,
            error: APIError?
        ) {
            active.decrement()
            let errorType = status.flatMap(HTTPClientConventions.errorType(status:)) ?? error?.conventionsType
            Timer(
                label: "http.client.request.duration",
                dimensions: conventions.dimensions(status: status, errorType: errorType, version: version),
                preferredDisplayUnit: .seconds, factory: factory
            ).recordNanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds - started))
            lastSent.withLock { $0 = (conventions, status, version) }
        }

        func observe(_ event: NetworkEvent) {
            switch event {
            case .exchangeFinished(let metrics) where !metrics.reachedTransport:
                // The attempt's answer came from an interceptor: no request of it to size.
                lastSent.withLock { $0 = nil }
            case .attemptFinished(let metrics):
                guard let (conventions, status, version) = lastSent.withLock({ $0 }) else { return }
                let errorType = status.flatMap(HTTPClientConventions.errorType(status:)) ?? metrics.error?.conventionsType
                let dimensions = conventions.dimensions(status: status, errorType: errorType, version: version)
                Recorder(label: "http.client.request.body.size", dimensions: dimensions, factory: factory).record(metrics.bytesSent)
                Recorder(label: "http.client.response.body.size", dimensions: dimensions, factory: factory).record(metrics.bytesReceived)
                // The next attempt's sizes are its own request's, or none if it sends none.
                lastSent.withLock { $0 = nil }
            default:
                break
            }
        }
    }

    /// The `http.client.active_requests` meters, one per factory and set of dimensions for the whole
    /// process: a backend that counts a meter's ups and downs in the meter itself (swift-metrics'
    /// `AccumulatingMeter`, for one that makes no meters of its own) must see every request of a
    /// series go through the same one.
    enum ActiveRequests {
        private static let meters = Locked<[Key: Meter]>([:])

        /// A factory and dimensions. The key holds its factory, so that no other object takes the
        /// factory's identity while its meters are kept.
        private struct Key: Hashable, Sendable {
            let factory: any MetricsFactory
            let identity: ObjectIdentifier
            let dimensions: [String]

            static func == (lhs: Key, rhs: Key) -> Bool { lhs.identity == rhs.identity && lhs.dimensions == rhs.dimensions }

            func hash(into hasher: inout Hasher) {
                hasher.combine(identity)
                hasher.combine(dimensions)
            }
        }

        /// The meter of `dimensions` on `factory`; a new one each time for a factory that is no class.
        static func meter(_ dimensions: [(String, String)], factory: any MetricsFactory) -> Meter {
            guard type(of: factory) is AnyClass else {
                return Meter(label: "http.client.active_requests", dimensions: dimensions, factory: factory)
            }
            let key = Key(
                factory: factory, identity: ObjectIdentifier(factory as AnyObject), dimensions: dimensions.flatMap { [$0.0, $0.1] })
            return meters.withLock { meters in
                if let meter = meters[key] { return meter }
                // Bounded: dimensions are of low cardinality, and factories few; a test suite's many are let go.
                if meters.count >= 1024 { meters.removeAll() }
                let meter = Meter(label: "http.client.active_requests", dimensions: dimensions, factory: factory)
                meters[key] = meter
                return meter
            }
        }
    }
#endif
