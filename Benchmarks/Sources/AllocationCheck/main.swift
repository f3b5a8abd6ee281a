import Foundation
import MallocInterposerSwift

/// CI's allocation check: counts the mallocs of the `-ours` benchmarks of `Benchmarks/Encoding` in
/// a release build that holds NetworkLayer and the malloc counter alone, and compares them with the
/// counts committed in `Benchmarks/Thresholds/` (`scripts/benchmark-allocations`).
///
///     allocation-check THRESHOLDS-DIRECTORY [--update]
///
/// A count per measured iteration, as the benchmark plugin records it: the 90th percentile of ten
/// iterations after three of warm-up. A count more than 1% above its threshold fails; one below it
/// passes and says so, to be recorded with `--update`. Counts are deterministic, so this can gate CI.
let arguments = Array(CommandLine.arguments.dropFirst())
guard let directory = arguments.first, arguments.count <= 2, arguments.count == 1 || arguments[1] == "--update" else {
    FileHandle.standardError.write(Data("usage: allocation-check THRESHOLDS-DIRECTORY [--update]\n".utf8))
    exit(64)
}
let updating = arguments.count == 2
/// A count may grow by this fraction before it fails: under half an allocation per request at 1×.
let allowedGrowth = 0.01

/// The mallocs of one measured iteration of `workload`, as the plugin counts them.
func mallocs(of workload: Workload) throws -> Int {
    var counts: [Int] = []
    for iteration in 0..<13 {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        for _ in 0..<workload.repetitions { try workload.run() }
        MallocInterposerSwift.unhook()
        if iteration >= 3 { counts.append(MallocInterposerSwift.getStatistics().mallocCount) }
    }
    return counts.sorted()[Int(Double(counts.count - 1) * 0.9)]
}

struct Threshold: Codable {
    let mallocCountTotal: Int
}

var worse = 0
do {
    MallocInterposerSwift.initialize()
    for workload in try Workload.encoding() {
        let file = URL(fileURLWithPath: directory).appendingPathComponent("Encoding.\(workload.name).p90.json")
        let count = try mallocs(of: workload)
        let name = workload.name.padding(toLength: 26, withPad: " ", startingAt: 0)
        if updating {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(Threshold(mallocCountTotal: count)).write(to: file)
            print("\(name) \(count) mallocs, recorded")
            continue
        }
        let threshold = try JSONDecoder().decode(Threshold.self, from: Data(contentsOf: file)).mallocCountTotal
        if Double(count) > Double(threshold) * (1 + allowedGrowth) {
            worse += 1
            print("\(name) \(count) mallocs: WORSE than the threshold of \(threshold)")
        } else if count < threshold {
            print("\(name) \(count) mallocs: better than the threshold of \(threshold) (record it with --update)")
        } else {
            print("\(name) \(count) mallocs, threshold \(threshold): ok")
        }
    }
} catch {
    FileHandle.standardError.write(Data("allocation-check: \(error)\n".utf8))
    exit(1)
}
exit(worse == 0 ? 0 : 1)
