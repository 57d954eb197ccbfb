// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "Interactors",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Interactors", targets: ["Interactors"]),
        .library(name: "InteractorsTestKit", targets: ["InteractorsTestKit"]),
    ],
    targets: [
        .target(name: "Interactors", dependencies: ["CInteractorsFutex"]),
        // The futex system call for `Lock` on Linux (Swift cannot call the variadic `syscall`); internal to the
        // package, not a product.
        .target(name: "CInteractorsFutex"),
        .target(name: "InteractorsTestKit", dependencies: ["Interactors"]),
        .executableTarget(name: "Playground", dependencies: ["Interactors"], path: "Playground"),
        .testTarget(
            name: "InteractorsTests",
            dependencies: ["Interactors", "InteractorsTestKit", "ServiceHostFixture"]
        ),
        // A child process the signal-host tests start and send SIGTERM or SIGINT to.
        .executableTarget(name: "ServiceHostFixture", dependencies: ["Interactors"], path: "Tests/ServiceHostFixture"),
        .testTarget(name: "InteractorsTestKitTests", dependencies: ["Interactors", "InteractorsTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)

// The settings swift-log uses: spell existentials `any`, import what a file uses, keep imports internal unless
// a file says `public import`.
for target in package.targets where target.name != "CInteractorsFutex" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
