import Benchmark
import BenchmarkSupport
import Foundation
import NetworkLayer
import NetworkLayerTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decoding a JSON body into a model through the client, over a stub transport (no sockets).
///
/// For each body size, three benchmarks on the same bytes:
/// - `ours`: `NetworkClient.fetch` on a `StubSession`: build, send, validate, decode.
/// - `raw`: `URLSession.data(for:)` on the same `StubSession` session, then `JSONDecoder.decode`,
///   so the transport is the same and only the layer differs.
/// - `decoder`: `JSONDecoder.decode` alone, the floor under both.
///
/// 1 KB to 1 MB is the growth table's 1×, 10×, 100× and 1000×.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    let sizes: [(label: String, bytes: Int, scaling: BenchmarkScalingFactor)] = [
        ("1KB", 1 << 10, .kilo), ("10KB", 10 << 10, .kilo), ("100KB", 100 << 10, .one), ("1MB", 1 << 20, .one),
    ]
    for (label, bytes, scaling) in sizes {
        var configuration = Benchmark.defaultConfiguration
        configuration.scalingFactor = scaling
        let body = MoviePage.json(bytes: bytes)
        let stubs = StubSession()
        stubs.register(.get, "/movies", StubResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body))
        let client = NetworkClient(transport: URLSessionTransport(session: stubs.session))
        let decoder = JSONDecoder()
        let url = URL(string: "http://stub.local/movies?page=1")!

        Benchmark("Decoding-\(label)-ours", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(StubMoviesEndpoint(), as: MoviePage.self))
            }
        }

        Benchmark("Decoding-\(label)-raw", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let (data, response) = try await stubs.session.data(for: URLRequest(url: url))
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                blackHole(try decoder.decode(MoviePage.self, from: data))
            }
        }

        Benchmark("Decoding-\(label)-decoder", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode(MoviePage.self, from: body))
            }
        }
    }
}

/// `GET /movies?page=1` on the stub session.
struct StubMoviesEndpoint: Endpoint {
    var base: String { "http://stub.local" }
    var path: String { "/movies" }
    var task: HTTPTask { .requestParameters(urlParameters: ["page": 1]) }
}
