// swift-tools-version:6.1

import PackageDescription

// An example server on the library: a Hummingbird service whose routes call interactors over a SQLite store, its
// services hosted by the library's ServiceRegistry inside swift-service-lifecycle's ServiceGroup. A package of its
// own, as Benchmarks/ is, so the library keeps no dependencies. See README.md.
let package = Package(
    name: "BookshelfServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Interactors", path: "../.."),
        // No traits: the example needs neither swift-configuration support nor the full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The server: its routes (the library's and the plain twin), its services and the registry's adapter.
        .target(
            name: "BookshelfApp",
            dependencies: [
                .product(name: "Interactors", package: "Interactors"),
                .product(name: "InteractorsData", package: "Interactors"),
                .product(name: "InteractorsSQLite", package: "Interactors"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // `BookshelfServer [--host 127.0.0.1] [--port 8080] [--database PATH] [--variant library|plain]`
        .executableTarget(
            name: "BookshelfServer",
            dependencies: [
                "BookshelfApp",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // A one-request HTTP/1.1 client on a blocking socket, for the load tool's checks and the tests.
        .target(name: "BookshelfHTTPClient"),
        // The load generator: keep-alive HTTP/1.1 connections to 127.0.0.1 only, bounded in time and count.
        .executableTarget(
            name: "BookshelfLoad",
            dependencies: [
                "BookshelfHTTPClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .testTarget(
            name: "BookshelfAppTests",
            dependencies: [
                "BookshelfApp",
                "BookshelfHTTPClient",
                .product(name: "Interactors", package: "Interactors"),
                .product(name: "InteractorsTestKit", package: "Interactors"),
                .product(name: "InteractorsData", package: "Interactors"),
                .product(name: "InteractorsSQLite", package: "Interactors"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The library's settings: spell existentials `any`, import what a file uses, keep imports internal unless a file
// says `public import`.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
