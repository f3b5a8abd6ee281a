import BenchmarkSupport
import Dispatch
import Foundation
import NetworkLayer
import NetworkLayerTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if AHC
    import AsyncHTTPClient
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
#endif

// Sends a fixed number of requests, ours or raw, for instruction counts that do not depend on the
// machine's load. Run it twice under callgrind with different counts; the difference divided by the
// difference in requests is the cost of one request, startup excluded. Valgrind cannot spawn the
// server, so start it first (it prints its port and serves until its standard input closes):
//
//   swift build -c release --package-path Benchmarks --product request-profile
//   sleep 3600 | NETWORKLAYER_BENCHMARK_SERVER=1 Benchmarks/.build/release/request-profile &
//   export NETWORKLAYER_BENCHMARK_SERVER_URL=http://127.0.0.1:<port it printed>
//   valgrind --tool=callgrind Benchmarks/.build/release/request-profile ours loopback 100
//   valgrind --tool=callgrind Benchmarks/.build/release/request-profile ours loopback 300
//
// Arguments: `ours` or `raw`, and with the package's trait `AHC` (`swift build … --traits AHC`) also
// `ahc` (ours over AsyncHTTPClientTransport) or `ahc-raw` (AsyncHTTPClient alone, on the same
// client); `stub` (a StubSession, ours and raw only), `loopback` (sequential) or `loopback64`
// (64 in flight); the number of requests. The main thread waits on a semaphore rather than
// running dispatch's main loop, which valgrind cannot run.

if LoopbackServer.isRequested { LoopbackServer.serve() }

let arguments = CommandLine.arguments.dropFirst()
#if AHC
    let sides = ["ours", "raw", "ahc", "ahc-raw"]
#else
    let sides = ["ours", "raw"]
#endif
guard arguments.count == 3, let side = arguments.first, sides.contains(side),
    let count = Int(arguments.last!), ["stub", "loopback", "loopback64"].contains(arguments[arguments.startIndex + 1]),
    !(side.hasPrefix("ahc") && arguments[arguments.startIndex + 1] == "stub")
else {
    let usage = "usage: request-profile \(sides.joined(separator: "|")) stub|loopback|loopback64 <count> (stub: ours and raw only)\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
let transport = arguments[arguments.startIndex + 1]

let stubs = StubSession()
stubs.register(.get, "/movies", StubResponse(body: MoviePage.json(bytes: 1024)))
let server = transport == "stub" ? nil : ProcessInfo.processInfo.environment["NETWORKLAYER_BENCHMARK_SERVER_URL"]
if transport != "stub", server == nil {
    FileHandle.standardError.write(Data("set NETWORKLAYER_BENCHMARK_SERVER_URL to a running server (see the source)\n".utf8))
    exit(64)
}
let base = server ?? "http://stub.local"
let session = server == nil ? stubs.session : URLSession(configuration: NetworkClient.defaultConfiguration())
let client = server == nil ? NetworkClient(session: stubs.session) : NetworkClient()
let decoder = JSONDecoder()

#if AHC
    let layerOverAHC = NetworkClient(transport: .asyncHTTPClient())
#endif

/// One request of the chosen side; false when it failed.
@Sendable func request() async -> Bool {
    #if AHC
        if side == "ahc" {
            return (try? await layerOverAHC.send(ProfileEndpoint(base: base), as: MoviePage.self)) != nil
        }
        if side == "ahc-raw" {
            let client = AsyncHTTPClientTransport.defaultClient
            guard let response = try? await client.execute(HTTPClientRequest(url: base + "/movies?page=1"), timeout: .seconds(60)),
                response.status == .ok, let body = try? await response.body.collect(upTo: 1 << 20)
            else { return false }
            return (try? decoder.decode(MoviePage.self, from: body)) != nil
        }
    #endif
    if side == "ours" {
        return (try? await client.send(ProfileEndpoint(base: base), as: MoviePage.self)) != nil
    }
    guard let (data, _) = try? await session.data(for: URLRequest(url: URL(string: base + "/movies?page=1")!)) else { return false }
    return (try? decoder.decode(MoviePage.self, from: data)) != nil
}

/// `GET /movies?page=1`.
struct ProfileEndpoint: Endpoint {
    let base: String
    var path: String { "/movies" }
    var task: HTTPTask { .requestParameters(urlParameters: ["page": 1]) }
}

let inFlight = transport == "loopback64" ? 64 : 1
let finished = DispatchSemaphore(value: 0)
Task.detached {
    let failures = await sendRequests(count: count, inFlight: inFlight, request)
    if failures > 0 {
        FileHandle.standardError.write(Data("\(failures) of \(count) requests failed\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
print("\(side) \(transport): \(count) requests")
