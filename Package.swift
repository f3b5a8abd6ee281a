// swift-tools-version:6.1
import PackageDescription

/// Dependencies that exist only when a user enables the `AsyncHTTPClient` trait: without it, nothing
/// is fetched or resolved and NetworkLayer imports Foundation alone.
let asyncHTTPClient = TargetDependencyCondition.when(traits: ["AsyncHTTPClient"])

/// swift-log, swift-metrics and swift-distributed-tracing, each only with its own trait.
let swiftLog = TargetDependencyCondition.when(traits: ["SwiftLog"])
let swiftMetrics = TargetDependencyCondition.when(traits: ["SwiftMetrics"])
let distributedTracing = TargetDependencyCondition.when(traits: ["DistributedTracing"])

/// AsyncHTTPClient for the tests, which run over both transports when the trait is on.
let testAsyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient)
/// NIOSSL for the tests that give AsyncHTTPClient a TLS configuration of their own.
let testNIOSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl", condition: asyncHTTPClient)

let package = Package(
    name: "NetworkLayer",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
        .library(name: "NetworkLayerTesting", targets: ["NetworkLayerTesting"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "AsyncHTTPClientTransport: sends over swift-server/async-http-client (SwiftNIO) instead of URLSession."
        ),
        .trait(
            name: "SwiftLog",
            description: "ClientConfiguration.logger and CallOptions.logger: every call logged to a swift-log Logger, at trace and debug."
        ),
        .trait(
            name: "SwiftMetrics",
            description: "http.client.* metrics by OpenTelemetry's HTTP conventions, to the bootstrapped swift-metrics backend."
        ),
        .trait(
            name: "DistributedTracing",
            description:
                "A CLIENT span per exchange by OpenTelemetry's HTTP conventions, and traceparent sent, through swift-distributed-tracing."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        // The versions the observability traits were tested with: withTracer and withMetricsFactory, which
        // a call honours, are recent.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "NetworkLayer",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
                .product(name: "NIOCore", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOPosix", package: "swift-nio", condition: asyncHTTPClient),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: asyncHTTPClient),
                .product(
                    name: "Tracing", package: "swift-distributed-tracing",
                    condition: .when(traits: ["AsyncHTTPClient", "DistributedTracing"])),
                .product(name: "Logging", package: "swift-log", condition: swiftLog),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: swiftMetrics),
                .target(name: "CZlib", condition: asyncHTTPClient),
            ]
        ),
        // zlib, with which AsyncHTTPClientTransport inflates bodies a slice at a time, checking the response limits.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "NetworkLayerTesting", dependencies: ["NetworkLayer"]),
        // Helpers both test targets share: progress logs, temporary directories, patterned bytes, peak memory.
        .target(name: "TestSupport", dependencies: ["NetworkLayer", testAsyncHTTPClient], path: "Tests/TestSupport"),
        .testTarget(
            name: "NetworkLayerTests",
            dependencies: [
                "NetworkLayer", "NetworkLayerTesting", "TestSupport", testAsyncHTTPClient, testNIOSSL,
                // The integrations' tests, against each package's own test backend.
                .product(name: "Logging", package: "swift-log", condition: swiftLog),
                .product(name: "InMemoryLogging", package: "swift-log", condition: swiftLog),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: swiftMetrics),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: swiftMetrics),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: distributedTracing),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: distributedTracing),
            ]),
        .testTarget(name: "IntegrationTests", dependencies: ["NetworkLayer", "TestSupport", testAsyncHTTPClient]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
