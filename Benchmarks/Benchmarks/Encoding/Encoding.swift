import Benchmark
import BenchmarkSupport
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request building and parameter encoding: the layer against `URLComponents` + `JSONSerialization`.
///
/// Every benchmark here allocates the same way on every run, so CI checks their malloc counts
/// against `Thresholds/` (see `scripts/benchmark-allocations`). Names carry no spaces: the
/// thresholds files are named after them.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000,
        // A malloc count may grow by 1% before CI calls it a regression. Counts are deterministic, and
        // 1% is under half an allocation per request at 1× (38 per request), so one more fails.
        thresholds: [.mallocCountTotal: BenchmarkThresholds(relative: [.p90: 1.0])]
    )

    // 1 and 6: an Endpoint with 10 query parameters and a JSON body → URLRequest, at 1×, 10× and
    // 100× the parameters; a thousand requests per measured iteration at 1×, one above.
    let scales: [(scale: Int, scaling: BenchmarkScalingFactor)] = [(1, .kilo), (10, .one), (100, .one)]
    for (scale, scaling) in scales {
        var configuration = Benchmark.defaultConfiguration
        configuration.scalingFactor = scaling

        Benchmark("RequestBuilding-x\(scale)-ours", configuration: configuration) { benchmark, endpoint in
            for _ in benchmark.scaledIterations {
                blackHole(try endpoint.urlRequest())
            }
        } setup: {
            DiscoverEndpoint(scale: scale)
        }

        Benchmark("RequestBuilding-x\(scale)-raw", configuration: configuration) { benchmark, parameters in
            for _ in benchmark.scaledIterations {
                blackHole(
                    try HandBuilt.request(
                        base: RequestFixtures.base,
                        path: RequestFixtures.path,
                        query: parameters.query,
                        body: parameters.body,
                        headers: RequestFixtures.headers
                    )
                )
            }
        } setup: {
            (query: RequestFixtures.queryParameters(scale: scale), body: RequestFixtures.bodyParameters(scale: scale))
        }
    }

    // 2: twenty parameters into a query string (a form body is the same text from the same encoder).
    let twenty = RequestFixtures.twentyParameters
    let twentyParameters = Parameters(twenty)

    Benchmark("QueryEncoding-20-ours") { benchmark in
        let encoder = URLParameterEncoder()
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.query(for: twentyParameters))
        }
    }

    Benchmark("QueryEncoding-20-raw") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(HandBuilt.query(twenty))
        }
    }
}
