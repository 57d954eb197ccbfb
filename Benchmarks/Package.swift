// swift-tools-version:6.1

import PackageDescription

// The benchmarks live in their own package so the library keeps no dependencies. One executable runs every case
// for `Response` and for each peer in the same process; see README.md and ../BENCHMARKS.md.
let package = Package(
    name: "InteractorsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Interactors", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "InteractorsBenchmarks",
            dependencies: [
                .product(name: "Interactors", package: "Interactors"),
                .product(name: "InteractorsData", package: "Interactors"),
                .product(name: "InteractorsSQLite", package: "Interactors"),
                .product(name: "InteractorsPresentation", package: "Interactors"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
