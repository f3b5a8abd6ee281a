import BenchmarkSupport
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One piece of work whose allocations CI guards, named as its benchmark in the `Encoding` suite,
/// with the times one measured iteration repeats it (that suite's scaling factor).
struct Workload {
    /// The benchmark's name, which names its thresholds file: `Encoding.<name>.p90.json`.
    let name: String
    /// How many times one measured iteration runs ``run``: 1,000 for `.kilo`, 1 for `.one`.
    let repetitions: Int
    /// The work, on values made before counting starts.
    let run: () throws -> Void

    /// The `-ours` benchmarks of `Benchmarks/Encoding`: request building at 1×, 10× and 100× the
    /// parameters, then twenty parameters into a query string (a form body is the same text from the
    /// same encoder).
    static func encoding() throws -> [Workload] {
        let building = [(scale: 1, repetitions: 1_000), (10, 1), (100, 1)].map { scale, repetitions in
            let endpoint = DiscoverEndpoint(scale: scale)
            return Workload(name: "RequestBuilding-x\(scale)-ours", repetitions: repetitions) {
                blackHole(try endpoint.urlRequest())
            }
        }
        let twenty = Parameters(RequestFixtures.twentyParameters)
        let query = URLParameterEncoder()
        return building + [
            Workload(name: "QueryEncoding-20-ours", repetitions: 1_000) { blackHole(try query.query(for: twenty)) }
        ]
    }
}

/// Keeps `value` alive as far as the optimizer can tell, so the work that made it is not removed.
@inline(never)
func blackHole<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
}

/// A failure of the check itself, with what went wrong.
struct CheckError: Error, CustomStringConvertible {
    let description: String
}
