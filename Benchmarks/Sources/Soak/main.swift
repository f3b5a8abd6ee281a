import BenchmarkSupport
import Dispatch
import Foundation

// A long run of small requests over loopback that reports the client process's resident memory, open
// file descriptors and threads every 10,000 requests: a soak, not a timed benchmark. It sends the
// requests one at a time, then 64 in flight, each a `GET /movies?page=1` decoded as a ~1 KB MoviePage,
// on one client kept for the whole run:
//
//   swift build -c release --package-path Benchmarks --product soak
//   Benchmarks/.build/release/soak                 # ours, 100,000 sequential then 100,000 with 64 in flight
//   Benchmarks/.build/release/soak raw 20000       # URLSession.data(for:) + JSONDecoder, 20,000 + 20,000
//
// Arguments: `ours` (the default) or `raw`, and with the package's trait `AHC` (`swift build … --traits AHC`)
// also `ahc` (ours over AsyncHTTPClientTransport) or `ahc-raw` (AsyncHTTPClient alone, on the same
// client); then the requests per phase (100,000 by default). The server
// is this executable run again in a child process (see ServerProcess), so neither its memory nor its
// threads are counted. The main thread waits on a semaphore, so the run also works under valgrind or
// heaptrack.

if LoopbackServer.isRequested { LoopbackServer.serve() }

let arguments = Array(CommandLine.arguments.dropFirst())
let side = MoviesRequest.Side(rawValue: arguments.first ?? "ours")
let perPhase = arguments.count > 1 ? Int(arguments[1]) : 100_000
guard let side, arguments.count <= 2, let perPhase, perPhase > 0 else {
    let usage = "usage: soak [\(MoviesRequest.Side.names.joined(separator: "|"))] [requests per phase]\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}

/// One line of the report.
func report(_ phase: String, _ requests: Int, _ seconds: Double, failures: Int) {
    let resident = ProcessStats.residentBytes().map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "?"
    let descriptors = ProcessStats.openFileDescriptors().map(String.init) ?? "?"
    let threads = ProcessStats.threads().map(String.init) ?? "?"
    let columns = [
        phase.padding(toLength: 14, withPad: " ", startingAt: 0), String(requests), String(format: "%.1f", seconds), resident,
        descriptors, threads, String(failures),
    ]
    print(columns.joined(separator: "\t"))
}

let server: ServerProcess
do {
    server = try ServerProcess()
} catch {
    FileHandle.standardError.write(Data("could not start the loopback server: \(error)\n".utf8))
    exit(1)
}
let movies = MoviesRequest(side, base: server.baseURL)

/// One request of the chosen side; false when it failed.
@Sendable func request() async -> Bool {
    await movies.send()
}

let finished = DispatchSemaphore(value: 0)
Task.detached {
    print("\(side.rawValue): \(perPhase) requests sequentially, then \(perPhase) with 64 in flight, on one client")
    print(["phase", "requests", "seconds", "RSS MiB", "fds", "threads", "failures"].joined(separator: "\t"))
    report("idle", 0, 0, failures: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    var total = 0
    var failures = 0
    for (phase, inFlight) in [("sequential", 1), ("64 in flight", 64)] {
        var done = 0
        while done < perPhase {
            let batch = min(10_000, perPhase - done)
            failures += await sendRequests(count: batch, inFlight: inFlight, request)
            done += batch
            total += batch
            report(phase, total, Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000, failures: failures)
        }
    }
    finished.signal()
}
finished.wait()
server.stop()
