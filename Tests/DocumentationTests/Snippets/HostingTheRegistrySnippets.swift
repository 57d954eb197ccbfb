import Foundation
import Interactors

// The Linux server and command-line tool blocks of Sources/Interactors/Interactors.docc/HostingTheRegistry.md,
// with the stand-ins they need; compiled, not run. (The UIKit and SwiftUI hosts need Apple's UI frameworks.) The
// async server block is also the top-level code of Tests/TopLevelServer/main.swift, which TopLevelServerTests
// runs.

private struct HostingTheRegistrySnippets {
    final class ConnectionPool: Service {}
    final class MetricsExporter: Service {}
    final class Cache: Service {}

    func runTool() throws {}
    func loadConfiguration() async throws {}

    // The signal host exists on macOS and Linux only.
    #if os(macOS) || os(Linux)
    func asyncServer() async throws {
        // main.swift: top-level code that awaits is an async `main`
        let registry = ServiceRegistry.shared
        registry.register(ConnectionPool())
        registry.register(MetricsExporter())
        try await loadConfiguration()
        let failures: [ServiceFailure] = try await registry.runUntilTerminated()
        if !failures.isEmpty { exit(1) }
    }

    func synchronousServer() -> Never {
        let registry = ServiceRegistry.shared
        registry.register(ConnectionPool())
        registry.runUntilTerminated()
    }

    func boundedTearDown(_ registry: ServiceRegistry) async throws {
        try await registry.runUntilTerminated(shutDownDeadline: .seconds(10))
    }

    func server() -> Never {
        let registry = ServiceRegistry.shared
        registry.register(ConnectionPool())
        registry.register(MetricsExporter())
        registry.runUntilTerminated()
    }

    func commandLineTool() throws {
        let registry = ServiceRegistry()
        registry.register(Cache())
        registry.startHosting()
        try runTool()
        registry.shutDown()
    }
    #endif
}
