// swift-tools-version:6.1
import PackageDescription

/// Benchmarks of NetworkLayer against the raw Foundation baseline, on package-benchmark.
///
/// Every benchmark of the layer has a twin doing the same work with Foundation alone, so the
/// Performance article can quote ratios measured in one run. Run them all from the repository
/// root with:
///
///     swift package --package-path Benchmarks --disable-sandbox benchmark
///
/// With the trait `AHC` (`swift package --package-path Benchmarks --traits AHC …`), the loopback
/// suite, request-profile and soak also run over AsyncHTTPClientTransport, each with a twin on
/// AsyncHTTPClient alone; without it, nothing of AsyncHTTPClient is built.
let ahc = TargetDependencyCondition.when(traits: ["AHC"])

/// AsyncHTTPClient and the parts of SwiftNIO its raw twins use, with the trait only.
let asyncHTTPClient: [Target.Dependency] = [
    .product(name: "AsyncHTTPClient", package: "async-http-client", condition: ahc),
    .product(name: "NIOCore", package: "swift-nio", condition: ahc),
    .product(name: "NIOFoundationCompat", package: "swift-nio", condition: ahc),
    .product(name: "NIOHTTP1", package: "swift-nio", condition: ahc),
]

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(
            name: "AHC",
            description:
                "The loopback benchmarks, request-profile and soak over AsyncHTTPClientTransport too, with twins on AsyncHTTPClient alone."
        ),
        .trait(
            name: "Observability",
            description:
                "NetworkLayer with its SwiftLog, SwiftMetrics and DistributedTracing traits: what they cost with no backend (scripts/observability-cost.sh)."
        ),
    ],
    dependencies: [
        .package(
            name: "NetworkLayer", path: "..",
            traits: [
                .trait(name: "AsyncHTTPClient", condition: .when(traits: ["AHC"])),
                .trait(name: "SwiftLog", condition: .when(traits: ["Observability"])),
                .trait(name: "SwiftMetrics", condition: .when(traits: ["Observability"])),
                .trait(name: "DistributedTracing", condition: .when(traits: ["Observability"])),
            ]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "NetworkLayer", package: "NetworkLayer")] + asyncHTTPClient
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
        // CI's allocation check: the Encoding suite's `-ours` work, its mallocs counted against
        // Thresholds/, in a release build of NetworkLayer and the counter alone (scripts/benchmark-allocations).
        .executableTarget(
            name: "allocation-check",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "NetworkLayer", package: "NetworkLayer"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Sources/AllocationCheck"
        ),
        // The public HTTP cache conformance suite against HTTPCache (Benchmarks/scripts/cache-conformance.sh).
        .executableTarget(
            name: "cache-conformance",
            dependencies: [.product(name: "NetworkLayer", package: "NetworkLayer")],
            path: "Sources/CacheConformance"
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
            ] + (suite == "Loopback" ? asyncHTTPClient : []),
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
