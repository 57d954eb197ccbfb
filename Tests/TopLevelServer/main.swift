// The async server block of Sources/Interactors/Interactors.docc/HostingTheRegistry.md, as written, as the top-level
// code of an executable: it must compile there, not only inside a function. TopLevelServerTests runs it and stops
// it with SIGTERM. The two services stand in for the article's; each says what it hears, on standard output.
#if os(macOS) || os(Linux)
import Foundation  // for exit(_:)
import Interactors

final class ConnectionPool: Service {
    func receive(_ event: LifecycleEvent) throws {
        FileHandle.standardOutput.write(Data("pool: \(event)\n".utf8))
    }
}

final class MetricsExporter: Service {
    struct FlushFailed: Error {}

    func willTerminate() throws {
        if CommandLine.arguments.contains("fail-tear-down") { throw FlushFailed() }
    }
}

func loadConfiguration() async throws {}

// The block, verbatim from here on.
let registry = ServiceRegistry.shared
registry.register(ConnectionPool())
registry.register(MetricsExporter())
try await loadConfiguration()
let failures: [ServiceFailure] = try await registry.runUntilTerminated()
if !failures.isEmpty { exit(1) }
#endif
