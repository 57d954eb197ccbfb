// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "Interactors",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Interactors", targets: ["Interactors"]),
        .library(name: "InteractorsTestKit", targets: ["InteractorsTestKit"]),
        .library(name: "InteractorsPresentation", targets: ["InteractorsPresentation"]),
        .library(name: "InteractorsData", targets: ["InteractorsData"]),
        .library(name: "InteractorsSQLite", targets: ["InteractorsSQLite"]),
        .library(name: "InteractorsAppHost", targets: ["InteractorsAppHost"]),
    ],
    targets: [
        .target(name: "Interactors", dependencies: ["CInteractorsFutex"]),
        // The futex system call for `Lock` on Linux (Swift cannot call the variadic `syscall`); internal to the
        // package, not a product.
        .target(name: "CInteractorsFutex"),
        // The test kit's `StoreRecorder` records a presentation `Store`'s states.
        .target(name: "InteractorsTestKit", dependencies: ["Interactors", "InteractorsPresentation"]),
        .target(name: "InteractorsPresentation", dependencies: ["Interactors"]),
        .target(name: "InteractorsData", dependencies: ["Interactors"]),
        // The host that follows UIKit's or AppKit's application notifications, for apps: a target of its own so that
        // the core links no UI framework. Elsewhere it holds nothing public.
        .target(name: "InteractorsAppHost", dependencies: ["Interactors"]),
        // SQLite from the system: the SDK's `SQLite3` module on Apple platforms, this system library elsewhere.
        .target(
            name: "InteractorsSQLite",
            dependencies: [
                "Interactors", "InteractorsData",
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .openbsd, .windows, .wasi])),
            ]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .executableTarget(
            name: "Playground",
            dependencies: ["Interactors", "InteractorsPresentation", "InteractorsData", "InteractorsSQLite"],
            path: "Playground"
        ),
        // The test targets' trait that runs a suite's tests on threads of their own, off Swift's cooperative
        // pool, which blocking tests would otherwise hold. Not a product.
        .target(name: "TestThreads", dependencies: ["Interactors"], path: "Tests/TestThreads"),
        .testTarget(
            name: "InteractorsTests",
            dependencies: ["Interactors", "InteractorsTestKit", "ServiceHostFixture", "TestThreads"]
        ),
        // A child process the signal-host tests start and send SIGTERM or SIGINT to.
        .executableTarget(name: "ServiceHostFixture", dependencies: ["Interactors"], path: "Tests/ServiceHostFixture"),
        .testTarget(
            name: "InteractorsTestKitTests",
            dependencies: ["Interactors", "InteractorsTestKit", "InteractorsPresentation", "TestThreads"]
        ),
        // What the data-layer tests and their child processes share: temporary directories, child processes,
        // threads, the notes they store, the fixtures' output. Not a product.
        .target(
            name: "DataTestSupport",
            dependencies: ["Interactors", "InteractorsData"],
            path: "Tests/DataTestSupport"
        ),
        // The data-layer tests start a python3 REST server (Fixtures/rest_server.py) and a child process that
        // opens the same file store or SQLite database (DataStoreFixture, SQLiteStoreFixture). The cache
        // repository's tests run over every store that keeps its index, SQLite's included.
        .testTarget(
            name: "InteractorsDataTests",
            dependencies: [
                "Interactors", "InteractorsData", "InteractorsSQLite", "InteractorsTestKit", "DataTestSupport",
                "DataStoreFixture", "SQLiteStoreFixture", "TestThreads",
            ],
            exclude: ["Fixtures"]
        ),
        .executableTarget(
            name: "DataStoreFixture",
            dependencies: ["Interactors", "InteractorsData", "DataTestSupport"],
            path: "Tests/DataStoreFixture"
        ),
        // The SQLite store's tests open real database files, and start a child process on the same file
        // (SQLiteStoreFixture) to write at once, or to be killed inside a transaction.
        .testTarget(
            name: "InteractorsSQLiteTests",
            dependencies: [
                "Interactors", "InteractorsData", "InteractorsSQLite", "DataTestSupport", "SQLiteStoreFixture",
                "TestThreads",
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .openbsd, .windows, .wasi])),
            ]
        ),
        .executableTarget(
            name: "SQLiteStoreFixture",
            dependencies: ["Interactors", "InteractorsData", "InteractorsSQLite", "DataTestSupport", "TestThreads"],
            path: "Tests/SQLiteStoreFixture"
        ),
        // The app host's launch options, read from a notification's user info as Foundation bridges it.
        .testTarget(name: "InteractorsAppHostTests", dependencies: ["Interactors", "InteractorsAppHost"]),
        .testTarget(
            name: "InteractorsPresentationTests",
            dependencies: ["Interactors", "InteractorsPresentation", "InteractorsTestKit", "TestThreads"]
        ),
        // Every Swift code block of the README and the DocC articles, compiled (and the tests among them run),
        // and a test that checks each block still appears in these sources.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Interactors", "InteractorsTestKit", "InteractorsPresentation", "InteractorsData", "InteractorsSQLite",
                "InteractorsAppHost", "TopLevelServer", "DataTestSupport",
            ]
        ),
        // The article's async server block as an executable's top-level code, which DocumentationTests runs.
        .executableTarget(name: "TopLevelServer", dependencies: ["Interactors"], path: "Tests/TopLevelServer"),
    ],
    swiftLanguageModes: [.v6]
)

// The settings swift-log uses: spell existentials `any`, import what a file uses, keep imports internal unless
// a file says `public import`.
for target in package.targets where target.type != .system && target.name != "CInteractorsFutex" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
