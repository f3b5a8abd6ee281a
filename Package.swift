// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "NetworkLayer",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
        .library(name: "NetworkLayerTesting", targets: ["NetworkLayerTesting"]),
    ],
    targets: [
        .target(name: "NetworkLayer"),
        .target(name: "NetworkLayerTesting", dependencies: ["NetworkLayer"]),
        // Helpers both test targets share: progress logs, temporary directories, patterned bytes, peak memory.
        .target(name: "TestSupport", dependencies: ["NetworkLayer"], path: "Tests/TestSupport"),
        .testTarget(name: "NetworkLayerTests", dependencies: ["NetworkLayer", "NetworkLayerTesting", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["NetworkLayer", "TestSupport"]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
