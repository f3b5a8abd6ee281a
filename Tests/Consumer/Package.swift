// swift-tools-version:6.1
import PackageDescription

/// A package that uses NetworkLayer as an application would, through SwiftPM alone: `scripts/test`
/// checks that without a trait it resolves no package, and that with its trait `AHC` (which turns
/// on NetworkLayer's `AsyncHTTPClient` trait) every verb works over `.asyncHTTPClient()`.
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v12)],
    traits: [
        .trait(name: "AHC", description: "Sends over NetworkLayer's AsyncHTTPClientTransport.")
    ],
    dependencies: [
        .package(
            name: "NetworkLayer", path: "../..",
            traits: [.trait(name: "AsyncHTTPClient", condition: .when(traits: ["AHC"]))])
    ],
    targets: [
        .executableTarget(name: "consumer", dependencies: [.product(name: "NetworkLayer", package: "NetworkLayer")])
    ]
)
