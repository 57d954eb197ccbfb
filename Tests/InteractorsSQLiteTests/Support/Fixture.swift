// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation

/// The SQLiteStoreFixture executable, built next to the tests: a second process on the same database file.
enum SQLiteFixture {
    static var executable: URL {
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("SQLiteStoreFixture")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("SQLiteStoreFixture")
    }

    /// Starts the fixture with `arguments`.
    static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: executable, arguments: arguments)
    }
}
#endif
