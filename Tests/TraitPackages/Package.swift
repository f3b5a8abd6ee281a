// swift-tools-version:6.1
import PackageDescription

/// A package that depends on NetworkLayer with one trait of its own per integration trait of
/// NetworkLayer's: `scripts/test` resolves it with each and checks that each brings in its own package
/// alone (swift-log, swift-metrics, swift-distributed-tracing), as an application that turns one on
/// would see. Nothing is built.
let package = Package(
    name: "TraitPackages",
    traits: [
        .trait(name: "Log", description: "NetworkLayer's SwiftLog."),
        .trait(name: "Metrics", description: "NetworkLayer's SwiftMetrics."),
        .trait(name: "Tracing", description: "NetworkLayer's DistributedTracing."),
    ],
    dependencies: [
        .package(
            name: "NetworkLayer", path: "../..",
            traits: [
                .trait(name: "SwiftLog", condition: .when(traits: ["Log"])),
                .trait(name: "SwiftMetrics", condition: .when(traits: ["Metrics"])),
                .trait(name: "DistributedTracing", condition: .when(traits: ["Tracing"])),
            ])
    ],
    targets: [
        .target(name: "TraitPackages", dependencies: [.product(name: "NetworkLayer", package: "NetworkLayer")])
    ]
)
