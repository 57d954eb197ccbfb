import Interactors

// The Linux server and command-line tool blocks of Sources/Interactors/Interactors.docc/HostingTheRegistry.md,
// with the stand-ins they need; compiled, not run. (The UIKit and SwiftUI hosts need Apple's UI frameworks.)

private struct HostingTheRegistrySnippets {
    final class ConnectionPool: Service {}
    final class MetricsExporter: Service {}
    final class Cache: Service {}

    func runTool() throws {}

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
}
