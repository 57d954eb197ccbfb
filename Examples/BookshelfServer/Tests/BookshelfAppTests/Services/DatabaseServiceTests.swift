import BookshelfApp
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Logging
import NIOConcurrencyHelpers
import Testing

/// The database service opens the file on launch and closes it on termination: CI's SIGTERM check reads its
/// "closed" line, which a second reference held by the service itself once kept from ever printing in debug builds.
@Suite struct DatabaseServiceTests {
    @Test func terminatingClosesTheDatabaseFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bookshelf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("books.sqlite")
        let lines = NIOLockedValueBox<[String]>([])
        let logger = Logger(label: "DatabaseServiceTests") { _ in LineRecorder(lines: lines) }
        let service = DatabaseService(fileURL: url, executor: InteractorExecutor(), logger: logger)

        try service.receive(.didFinishLaunching([:]))
        _ = try service.books().put(Book(id: "b1", title: "Dune", author: "Frank Herbert")).get()
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))

        try service.receive(.willTerminate)
        #expect(throws: DataError.self) { try service.books() }
        // The last connection to close folds the log into the file and removes it: the database was released.
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        // What the fault script checks: the service saw the last reference go, and said so.
        let said = lines.withLockedValue { $0 }
        #expect(said.contains("DatabaseService closed \(url.path)"), "\(said)")
    }
}
