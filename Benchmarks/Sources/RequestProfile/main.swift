import BenchmarkSupport
import Dispatch
import Foundation
import NetworkLayer
import NetworkLayerTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Sends a fixed number of requests, ours or raw, for instruction counts that do not depend on the
// machine's load. Run it twice under callgrind with different counts; the difference divided by the
// difference in requests is the cost of one request, startup excluded. Valgrind cannot spawn the
// server, so start it first (it prints its port and serves until its standard input closes):
//
//   swift build -c release --package-path Benchmarks --product request-profile
//   sleep 3600 | NETWORKLAYER_BENCHMARK_SERVER=1 Benchmarks/.build/release/request-profile &
//   export NETWORKLAYER_BENCHMARK_SERVER_URL=http://127.0.0.1:<port it printed>
//   objcopy --strip-debug Benchmarks/.build/release/request-profile   # valgrind: "unhandled dwarf2 abbrev form code 0x1b"
//   valgrind --tool=callgrind Benchmarks/.build/release/request-profile ours loopback 100
//   valgrind --tool=callgrind Benchmarks/.build/release/request-profile ours loopback 300
//
// Arguments: `ours` or `raw`, and with the package's trait `AHC` (`swift build … --traits AHC`) also
// `ahc` (ours over AsyncHTTPClientTransport) or `ahc-raw` (AsyncHTTPClient alone, on the same
// client); `stub` (a StubSession, ours and raw only), `memory` (no network at all, ours and raw only:
// the layer over a transport that answers at once from memory, against `URL(string:)`,
// `URLRequest(url:)` and `JSONDecoder` on the same bytes: what the client's own path costs),
// `loopback` (sequential) or `loopback64` (64 in flight); the number of requests. The main thread waits on a semaphore rather than
// running dispatch's main loop, which valgrind cannot run.

if LoopbackServer.isRequested { LoopbackServer.serve() }

let arguments = CommandLine.arguments.dropFirst()
let transports = ["stub", "memory", "loopback", "loopback64"]
guard arguments.count == 3, let side = MoviesRequest.Side(rawValue: arguments.first!), let count = Int(arguments.last!),
    case let transport = arguments[arguments.startIndex + 1], transports.contains(transport),
    !(side.rawValue.hasPrefix("ahc") && (transport == "stub" || transport == "memory"))
else {
    let sides = MoviesRequest.Side.names.joined(separator: "|")
    let usage = "usage: request-profile \(sides) \(transports.joined(separator: "|")) <count> (stub, memory: ours and raw only)\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}

let stubs = StubSession()
stubs.register(.get, "/movies", StubResponse(body: MoviePage.json(bytes: 1024)))
let isLocal = transport == "stub" || transport == "memory"
let server = isLocal ? nil : ProcessInfo.processInfo.environment["NETWORKLAYER_BENCHMARK_SERVER_URL"]
if !isLocal, server == nil {
    FileHandle.standardError.write(Data("set NETWORKLAYER_BENCHMARK_SERVER_URL to a running server (see the source)\n".utf8))
    exit(64)
}
let movies = MoviesRequest(side, base: server ?? "http://stub.local", session: server == nil ? stubs.session : nil)
let memory = MemoryRequest(side, body: MoviePage.json(bytes: 1024))

/// One request of the chosen side; false when it failed.
@Sendable func request() async -> Bool {
    transport == "memory" ? await memory.send() : await movies.send()
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
print("\(side.rawValue) \(transport): \(count) requests")

/// The `memory` transport's request: the same endpoint and body with no network, so that the
/// difference between the sides is the client's own path.
struct MemoryRequest: Sendable {
    /// A transport that answers every request at once with `body`.
    struct Transport: HTTPTransport {
        let body: Data

        func send(_ request: TransportRequest) async throws(APIError) -> TransportResponse {
            TransportResponse(head: HTTPResponse(statusCode: 200, url: request.urlRequest.url), body: ResponseBody(body))
        }

        func data(for request: TransportRequest) async throws(APIError) -> HTTPResponse {
            HTTPResponse(statusCode: 200, body: body, url: request.urlRequest.url)
        }
    }

    let side: MoviesRequest.Side
    let body: Data
    let client: NetworkClient
    let decoder = JSONDecoder()

    init(_ side: MoviesRequest.Side, body: Data) {
        self.side = side
        self.body = body
        client = NetworkClient(transport: Transport(body: body))
    }

    /// Sends the request once; false when it failed.
    func send() async -> Bool {
        if side == .ours {
            return (try? await client.send(MoviesEndpoint(base: "http://stub.local"), as: MoviePage.self)) != nil
        }
        guard let url = URL(string: "http://stub.local/movies?page=1") else { return false }
        let request = URLRequest(url: url)
        return request.url != nil && (try? decoder.decode(MoviePage.self, from: body)) != nil
    }
}
