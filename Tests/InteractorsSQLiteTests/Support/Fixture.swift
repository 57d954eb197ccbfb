// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation

/// The SQLiteStoreFixture executable, built next to the tests: a second process on the same database file.
enum SQLiteFixture {
    static var executable: URL {
        executableBuiltWithTheTests(named: "SQLiteStoreFixture")
    }

    /// Starts the fixture with `arguments`.
    static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: executable, arguments: arguments)
    }
}
#endif
