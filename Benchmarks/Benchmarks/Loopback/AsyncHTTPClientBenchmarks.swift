#if AHC
    import AsyncHTTPClient
    import Benchmark
    import BenchmarkSupport
    import Foundation
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
    import NetworkLayer

    /// The loopback benchmarks over ``AsyncHTTPClientTransport`` (`-AHC-ours`), each with a twin doing the
    /// same work with AsyncHTTPClient alone (`-AHC-raw`), on a client made as the transport makes its
    /// own (`MoviesRequest.rawClient`). Against the `URLSession` benchmarks of the same run
    /// (`-raw`), they show what the transport gains; against their twins, what the layer costs over it.
    func asyncHTTPClientBenchmarks(_ fixture: LoopbackFixture, memory: Benchmark.Configuration, transfer: Benchmark.Configuration) {
        let client = MoviesRequest.rawClient
        let layer = NetworkClient(transport: .asyncHTTPClient())

        layerBenchmarks(fixture, suffix: "-AHC-ours", memory: memory, transfer: transfer) { layer }

        for (label, count, inFlight) in requestRuns {
            Benchmark("\(label)-AHC-raw") { benchmark in
                let decoder = JSONDecoder()
                let url = fixture.baseURL + "/movies?page=1"
                await measureRequests(benchmark, count: count, inFlight: inFlight) {
                    await MoviesRequest.send(url, on: client, decoder: decoder)
                }
            } setup: {
                try fixture.start()
            } teardown: {
                fixture.stop()
            }
        }

        let inMemory = 200 * 1_000_000
        Benchmark("InMemory-200MB-AHC-raw", configuration: memory) { benchmark in
            let url = fixture.baseURL + "/bytes/\(inMemory)"
            await measurePeakMemory(benchmark, bodyBytes: inMemory, idle: fixture.idleResident) {
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                return try await response.body.collect(upTo: inMemory).readableBytes
            }
        } setup: {
            try fixture.start()
        } teardown: {
            fixture.stop()
        }

        let gibibyte = 1 << 30
        let downloadFile = LoopbackFixture.downloadFile

        // AsyncHTTPClient's own way to a file: its FileDownloadDelegate.
        Benchmark("Download-1GiB-toFile-AHC-raw", configuration: transfer) { benchmark in
            await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
                let request = try HTTPClient.Request(url: fixture.baseURL + "/bytes/\(gibibyte)")
                let delegate = try FileDownloadDelegate(path: downloadFile.path)
                let progress = try await client.execute(request: request, delegate: delegate).get()
                try? FileManager.default.removeItem(at: downloadFile)
                return progress.receivedBytes
            }
        } setup: {
            try fixture.start()
        } teardown: {
            fixture.stop()
        }

        // The file read in 128 KiB chunks as AsyncHTTPClient asks for them, as its documentation shows with a sequence.
        Benchmark("Upload-1GiB-fromFile-AHC-raw", configuration: transfer) { benchmark in
            await measurePeakMemory(benchmark, bodyBytes: gibibyte, idle: fixture.idleResident) {
                var request = HTTPClientRequest(url: fixture.baseURL + "/upload")
                request.method = .POST
                request.body = .stream(FileChunks(url: LoopbackFixture.uploadFile), length: .known(Int64(gibibyte)))
                let response = try await client.execute(request, timeout: .seconds(600))
                let body = try await response.body.collect(upTo: 1 << 20)
                return try JSONDecoder().decode([String: Int].self, from: body)["received"] ?? 0
            }
        } setup: {
            try fixture.startWithUploadFile(bytes: gibibyte)
        } teardown: {
            fixture.stopRemovingUploadFile()
        }
    }

    /// A file as 128 KiB `ByteBuffer`s, read with `FileHandle` as they are asked for.
    struct FileChunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let url: URL

        struct AsyncIterator: AsyncIteratorProtocol {
            let handle: FileHandle?

            mutating func next() async throws -> ByteBuffer? {
                guard let handle, let data = try handle.read(upToCount: 128 * 1024), !data.isEmpty else { return nil }
                return ByteBuffer(data: data)
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(handle: try? FileHandle(forReadingFrom: url))
        }
    }
#endif
