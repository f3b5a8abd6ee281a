import Benchmark
import BenchmarkSupport
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// End to end over loopback, against ``LoopbackServer`` in a child process (keep-alive, TCP_NODELAY).
///
/// `ours` is `NetworkClient()`; `raw` is a `URLSession` with the same configuration
/// (`URLSessionTransport.defaultConfiguration()`: no cache, 64 connections per host) driven with
/// `data(for:)` and `JSONDecoder`, so only the layer differs. Each benchmark gets a fresh server,
/// client and session; the warm-up iteration opens the connections. With the package's trait `AHC`,
/// the same benchmarks run over AsyncHTTPClient too (`asyncHTTPClientBenchmarks`).
let benchmarks: @Sendable () -> Void = {
    // This executable doubles as the server: ServerProcess starts it again with this variable set.
    if LoopbackServer.isRequested { LoopbackServer.serve() }

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, LoopbackMetric.requestsPerSecond, LoopbackMetric.cpuPerRequest],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 5
    )
    let fixture = LoopbackFixture()

    // 4: 2,000 sequential GETs of a 1 KB JSON, and 5,000 with 64 in flight, each decoded into a model.
    for (label, count, inFlight) in requestRuns {
        Benchmark("\(label)-raw") { benchmark in
            let session = fixture.session
            let decoder = JSONDecoder()
            let url = URL(string: fixture.baseURL + "/movies?page=1")!
            await measureRequests(benchmark, count: count, inFlight: inFlight) {
                await MoviesRequest.send(url, on: session, decoder: decoder)
            }
        } setup: {
            try fixture.start()
        } teardown: {
            fixture.stop()
        }
    }

    // A 200 MB body read into memory: the peak resident memory against the body's size.
    let inMemory = 200 * 1_000_000
    var memory = Benchmark.defaultConfiguration
    memory.metrics = [.wallClock] + LoopbackMetric.memory
    memory.maxIterations = 3

    // `send`, for comparison: it gets the body from a completion-handler task, like raw `data(for:)`.
    Benchmark("InMemory-200MB-send", configuration: memory) { benchmark in
        let client = fixture.client
        let endpoint = BytesEndpoint(base: fixture.baseURL, count: inMemory)
        await measurePeakMemory(benchmark, bodyBytes: inMemory, idle: fixture.idleResident) {
            try await client.send(endpoint, as: Data.self).count
        }
    } setup: {
        try fixture.start()
    } teardown: {
        fixture.stop()
    }

    Benchmark("InMemory-200MB-raw", configuration: memory) { benchmark in
        let session = fixture.session
        let url = URL(string: fixture.baseURL + "/bytes/\(inMemory)")!
        await measurePeakMemory(benchmark, bodyBytes: inMemory, idle: fixture.idleResident) {
            try await session.data(for: URLRequest(url: url)).0.count
        }
    } setup: {
        try fixture.start()
    } teardown: {
        fixture.stop()
    }

    // 5: 1 GiB to and from files.
    let gibibyte = 1 << 30
    var transfer = memory
    transfer.warmupIterations = 0
    let uploadFile = LoopbackFixture.uploadFile

    Benchmark("Download-1GiB-toFile-raw", configuration: transfer) { benchmark in
        let session = fixture.session
        let url = URL(string: fixture.baseURL + "/bytes/\(gibibyte)")!
        await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
            let (file, _) = try await session.download(for: URLRequest(url: url))
            defer { try? FileManager.default.removeItem(at: file) }
            return try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        }
    } setup: {
        try fixture.start()
    } teardown: {
        fixture.stop()
    }

    Benchmark("Upload-1GiB-fromFile-raw", configuration: transfer) { benchmark in
        let session = fixture.session
        var request = URLRequest(url: URL(string: fixture.baseURL + "/upload")!)
        request.httpMethod = "POST"
        await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
            let (data, _) = try await session.upload(for: request, fromFile: uploadFile)
            return try JSONDecoder().decode([String: Int].self, from: data)["received"] ?? 0
        }
    } setup: {
        try fixture.startWithUploadFile(bytes: gibibyte)
    } teardown: {
        fixture.stopRemovingUploadFile()
    }

    layerBenchmarks(fixture, suffix: "-ours", memory: memory, transfer: transfer) { fixture.client }
    #if AHC
        asyncHTTPClientBenchmarks(fixture, memory: memory, transfer: transfer)
    #endif

    Benchmark("Upload-1GiB-bodyStream-raw", configuration: transfer) { benchmark in
        let session = fixture.session
        await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
            var request = URLRequest(url: URL(string: fixture.baseURL + "/upload")!)
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(url: uploadFile)
            let (data, _) = try await session.data(for: request)
            return try JSONDecoder().decode([String: Int].self, from: data)["received"] ?? 0
        }
    } setup: {
        try fixture.startWithUploadFile(bytes: gibibyte)
    } teardown: {
        fixture.stopRemovingUploadFile()
    }
}

/// The custom metrics of the loopback benchmarks.
enum LoopbackMetric {
    /// Requests completed per second of wall time.
    static let requestsPerSecond = BenchmarkMetric.custom("Requests / s", polarity: .prefersLarger, useScalingFactor: false)
    /// CPU time of this process (every thread) per request, in nanoseconds; the server's is not counted.
    static let cpuPerRequest = BenchmarkMetric.custom("CPU per request (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The highest resident memory during the transfer, in MiB (`VmHWM`, reset before it starts).
    static let peakResident = BenchmarkMetric.custom("Peak RSS (MiB)", polarity: .prefersSmaller, useScalingFactor: false)
    /// That peak above the process's resident memory before the benchmark's first request, in MiB.
    static let peakOverIdle = BenchmarkMetric.custom("Peak RSS over idle (MiB)", polarity: .prefersSmaller, useScalingFactor: false)
    /// The peak as a percentage of the body's size (220 means 2.2× the body).
    static let peakPercentOfBody = BenchmarkMetric.custom("Peak RSS (% of body)", polarity: .prefersSmaller, useScalingFactor: false)

    /// That peak above the resident memory just before the transfer, in MiB: what the transfer itself needed.
    static let peakRise = BenchmarkMetric.custom("Peak RSS rise (MiB)", polarity: .prefersSmaller, useScalingFactor: false)
    static let memory = [peakResident, peakOverIdle, peakRise, peakPercentOfBody]
}

/// `GET /bytes/<count>` on the loopback server.
struct BytesEndpoint: Endpoint, Sendable {
    let base: String
    let count: Int
    var path: String { "/bytes/\(count)" }
    /// Room for the whole body in memory: the in-memory benchmark reads 200 MB, past the default limit of 64 MiB.
    var options: CallOptions { CallOptions(responseLimits: ResponseLimits(inMemory: Int64(count))) }
}

/// `POST /upload` with a file streamed as the body; the server answers `{"received": <bytes>}`.
struct UploadEndpoint: Endpoint, Sendable {
    let base: String
    let file: URL
    var path: String { "/upload" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .uploadFile(file) }
}

/// Sends `count` requests with at most `inFlight` outstanding, and records requests/s and CPU per request.
func measureRequests(
    _ benchmark: Benchmark,
    count: Int,
    inFlight: Int,
    _ request: @escaping @Sendable () async -> Bool
) async {
    let cpuBefore = ProcessStats.cpuTime()
    let clock = ContinuousClock()
    let started = clock.now
    benchmark.startMeasurement()
    let failures = await sendRequests(count: count, inFlight: inFlight, request)
    benchmark.stopMeasurement()
    let elapsed = clock.now - started
    let cpu = ProcessStats.cpuTime() - cpuBefore
    guard failures == 0 else {
        benchmark.error("\(failures) of \(count) requests failed")
        return
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    benchmark.measurement(LoopbackMetric.requestsPerSecond, Int((Double(count) / seconds).rounded()))
    benchmark.measurement(LoopbackMetric.cpuPerRequest, cpu / count)
}

/// Runs one transfer of `bodyBytes` and records the peak resident memory during it.
///
/// The kernel's high-water mark (`VmHWM`) is reset just before, so the peak is this transfer's,
/// read exactly rather than sampled. `idle` is the resident memory before the benchmark's first
/// request, the yardstick for "within a few MiB of an idle process".
func measurePeakMemory(_ benchmark: Benchmark, bodyBytes: Int, idle: Int, _ transfer: () async throws -> Int) async {
    guard ProcessStats.resetPeakResident(), let before = ProcessStats.residentBytes() else {
        benchmark.error("cannot reset the peak resident memory (/proc/self/clear_refs)")
        return
    }
    benchmark.startMeasurement()
    let received: Int
    do {
        received = try await transfer()
    } catch {
        benchmark.error("transfer failed: \(error)")
        return
    }
    benchmark.stopMeasurement()
    guard received == bodyBytes else {
        benchmark.error("transferred \(received) bytes, expected \(bodyBytes)")
        return
    }
    guard let peak = ProcessStats.peakResidentBytes() else { return }
    let mebibyte = 1 << 20
    benchmark.measurement(LoopbackMetric.peakResident, peak / mebibyte)
    benchmark.measurement(LoopbackMetric.peakOverIdle, (peak - idle) / mebibyte)
    benchmark.measurement(LoopbackMetric.peakRise, (peak - before) / mebibyte)
    benchmark.measurement(LoopbackMetric.peakPercentOfBody, peak * 100 / bodyBytes)
}

/// A ``ServerProcess``, a `NetworkClient` and a raw `URLSession` with the client's configuration,
/// made for one benchmark and ended after it, so every benchmark starts from the same state.
final class LoopbackFixture {
    private var server: ServerProcess?
    private(set) var client = NetworkClient(transport: URLSessionTransport(session: URLSession(configuration: .ephemeral)))
    private(set) var session = URLSession(configuration: .ephemeral)
    /// The resident memory once the server, the client and the session exist, before any request.
    private(set) var idleResident = 0

    /// `http://127.0.0.1:<port>` of the running server.
    var baseURL: String { server?.baseURL ?? "http://127.0.0.1:9" }

    func start() throws {
        server = try ServerProcess()
        client = NetworkClient()
        session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
        idleResident = ProcessStats.residentBytes() ?? 0
    }

    func stop() {
        client.session?.finishTasksAndInvalidate()
        session.finishTasksAndInvalidate()
        server?.stop()
        server = nil
    }

    /// The file the upload benchmarks send, and the one the downloads write.
    static let uploadFile = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-benchmark-upload.bin")
    static let downloadFile = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-benchmark-download.bin")

    /// ``start()``, with an upload file of `bytes` zeros that takes no disk space.
    func startWithUploadFile(bytes: Int) throws {
        try makeSparseFile(at: Self.uploadFile, bytes: bytes)
        try start()
    }

    /// ``stop()``, and the upload file removed.
    func stopRemovingUploadFile() {
        stop()
        try? FileManager.default.removeItem(at: Self.uploadFile)
    }
}

/// A file of `bytes` zeros that takes no disk space (a hole), for the upload benchmarks.
func makeSparseFile(at url: URL, bytes: Int) throws {
    try Data().write(to: url)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.truncate(atOffset: UInt64(bytes))
}
