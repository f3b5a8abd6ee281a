import Benchmark
import BenchmarkSupport
import Foundation
import NetworkLayer

/// The request runs of the throughput benchmarks: a label, the requests, and how many are in flight at once.
let requestRuns = [("Sequential-2000", 2_000, 1), ("Concurrent-5000-64inflight", 5_000, 64)]

/// The layer's benchmarks over the transport of `client`, named `<benchmark><suffix>` (`-ours` over
/// `URLSession`, `-AHC-ours` over AsyncHTTPClient), each beside its raw twin: the requests of
/// ``requestRuns`` decoded into a model, a 200 MB body read into memory with `response(for:)`, and 1 GiB
/// downloaded to and uploaded from a file.
func layerBenchmarks(
    _ fixture: LoopbackFixture,
    suffix: String,
    memory: Benchmark.Configuration,
    transfer: Benchmark.Configuration,
    client: @escaping () -> NetworkClient
) {
    for (label, count, inFlight) in requestRuns {
        Benchmark("\(label)\(suffix)") { benchmark in
            let client = client()
            let endpoint = MoviesEndpoint(base: fixture.baseURL)
            await measureRequests(benchmark, count: count, inFlight: inFlight) {
                (try? await client.send(endpoint, as: MoviePage.self)) != nil
            }
        } setup: {
            try fixture.start()
        } teardown: {
            fixture.stop()
        }
    }

    let inMemory = 200 * 1_000_000
    // `response(for:)` is the layer's way to read a large body into memory undecoded.
    Benchmark("InMemory-200MB\(suffix)", configuration: memory) { benchmark in
        let client = client()
        let endpoint = BytesEndpoint(base: fixture.baseURL, count: inMemory)
        await measurePeakMemory(benchmark, bodyBytes: inMemory, idle: fixture.idleResident) {
            try await client.response(for: endpoint).body.count
        }
    } setup: {
        try fixture.start()
    } teardown: {
        fixture.stop()
    }

    let gibibyte = 1 << 30
    Benchmark("Download-1GiB-toFile\(suffix)", configuration: transfer) { benchmark in
        let client = client()
        let endpoint = BytesEndpoint(base: fixture.baseURL, count: gibibyte)
        await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
            let file = try await client.download(for: endpoint, to: LoopbackFixture.downloadFile)
            defer { try? FileManager.default.removeItem(at: file.fileURL) }
            return Int(file.byteCount)
        }
    } setup: {
        try fixture.start()
    } teardown: {
        fixture.stop()
    }

    Benchmark("Upload-1GiB-fromFile\(suffix)", configuration: transfer) { benchmark in
        let client = client()
        let endpoint = UploadEndpoint(base: fixture.baseURL, file: LoopbackFixture.uploadFile)
        await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
            try await client.upload(for: endpoint, as: [String: Int].self)["received"] ?? 0
        }
    } setup: {
        try fixture.startWithUploadFile(bytes: gibibyte)
    } teardown: {
        fixture.stopRemovingUploadFile()
    }
}
