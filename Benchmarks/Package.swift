// swift-tools-version:6.1
import PackageDescription

/// Benchmarks of NetworkLayer against the raw Foundation baseline, on package-benchmark.
///
/// Every benchmark of the layer has a twin doing the same work with Foundation alone, so the
/// Performance article can quote ratios measured in one run. Run them all from the repository
/// root with:
///
///     swift package --package-path Benchmarks --disable-sandbox benchmark
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "NetworkLayer", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "NetworkLayer", package: "NetworkLayer")]
        ),
        // A long run of requests, ours or raw, reporting memory, descriptors and threads every 10,000.
        .executableTarget(
            name: "soak",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "NetworkLayer", package: "NetworkLayer"),
            ],
            path: "Sources/Soak"
        ),
        // A fixed number of requests, ours or raw, for instruction counts under callgrind.
        .executableTarget(
            name: "request-profile",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "NetworkLayer", package: "NetworkLayer"),
                .product(name: "NetworkLayerTesting", package: "NetworkLayer"),
            ],
            path: "Sources/RequestProfile"
        ),
        // One large transfer per process, ours or raw, for its peak memory (Benchmarks/scripts/transfer-memory.py).
        .executableTarget(
            name: "transfer-memory",
            dependencies: ["BenchmarkSupport", .product(name: "NetworkLayer", package: "NetworkLayer")],
            path: "Sources/TransferMemory"
        ),
    ]
)

/// The benchmark suites, one executable each, found by the benchmark plugin under `Benchmarks/<name>`.
/// `Encoding` is the one CI checks against the allocation thresholds in `Thresholds/`.
for suite in ["Encoding", "Decoding", "Loopback"] {
    package.targets.append(
        .executableTarget(
            name: suite,
            dependencies: [
                "BenchmarkSupport",
                .product(name: "NetworkLayer", package: "NetworkLayer"),
                .product(name: "NetworkLayerTesting", package: "NetworkLayer"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/\(suite)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    )
}

for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
