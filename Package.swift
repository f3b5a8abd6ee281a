// swift-tools-version:6.1
import PackageDescription

/// Dependencies that exist only when a user enables the `AsyncHTTPClient` trait: without it, nothing
/// is fetched or resolved and NetworkLayer imports Foundation alone.
let asyncHTTPClient = TargetDependencyCondition.when(traits: ["AsyncHTTPClient"])

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
        )
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
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
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: asyncHTTPClient),
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
            dependencies: ["NetworkLayer", "NetworkLayerTesting", "TestSupport", testAsyncHTTPClient, testNIOSSL]),
        .testTarget(name: "IntegrationTests", dependencies: ["NetworkLayer", "TestSupport", testAsyncHTTPClient]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
