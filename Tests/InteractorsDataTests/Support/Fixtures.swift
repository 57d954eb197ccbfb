// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation

/// Where the test fixtures are: the DataStoreFixture and SQLiteStoreFixture executables built next to the tests,
/// and the python REST server in the test sources.
enum Fixtures {
    static var dataStoreExecutable: URL {
        executableBuiltWithTheTests(named: "DataStoreFixture")
    }

    static var sqliteStoreExecutable: URL {
        executableBuiltWithTheTests(named: "SQLiteStoreFixture")
    }

    static var restServerScript: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rest_server.py")
    }

    /// Runs DataStoreFixture with `arguments` to the end; its output lines.
    static func runDataStore(_ arguments: [String]) throws -> [String] {
        let child = try ChildProcess(executable: dataStoreExecutable, arguments: arguments)
        _ = child.waitForLine { $0 == "done" || $0.hasPrefix("count ") || $0.hasPrefix("error ") }
        child.stop()
        return child.output
    }
}
#endif
