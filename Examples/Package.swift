// swift-tools-version:6.0
import PackageDescription

/// The example app of NetworkLayer: a TMDB movie browser (`movies`) and the fixture server it
/// runs against when no real API is given.
let package = Package(
    name: "Examples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "movies", targets: ["movies"])
    ],
    dependencies: [
        .package(name: "NetworkLayer", path: ".."),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        .target(name: "MoviesKit", dependencies: [.product(name: "NetworkLayer", package: "NetworkLayer")]),
        .target(
            name: "FixtureServer",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        .executableTarget(name: "movies", dependencies: ["MoviesKit", "FixtureServer"]),
        .testTarget(
            name: "MoviesTests",
            dependencies: [
                "MoviesKit", "FixtureServer", .product(name: "NetworkLayer", package: "NetworkLayer"),
                .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
