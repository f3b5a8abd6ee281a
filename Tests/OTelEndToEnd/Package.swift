// swift-tools-version:6.2
import PackageDescription

/// A service instrumented with swift-otel, as one would be, calling through NetworkLayer with the
/// observability traits over both transports: `scripts/test` runs it against
/// `scripts/otlp-receiver.py`, which decodes the spans it exports over OTLP/HTTP and checks that
/// NetworkLayer's CLIENT spans are the children of the service's own, with the conventions' attributes
/// and their `traceparent` sent.
let package = Package(
    name: "OTelEndToEnd",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(
            name: "NetworkLayer", path: "../..",
            traits: ["AsyncHTTPClient", "SwiftLog", "SwiftMetrics", "DistributedTracing"]),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .executableTarget(
            name: "otel-e2e",
            dependencies: [
                .product(name: "NetworkLayer", package: "NetworkLayer"),
                .product(name: "OTel", package: "swift-otel"),
            ])
    ]
)
