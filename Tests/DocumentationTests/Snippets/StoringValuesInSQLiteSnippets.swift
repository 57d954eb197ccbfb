import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import InteractorsTestKit
import Synchronization
import Testing

// The code blocks of Sources/InteractorsSQLite/InteractorsSQLite.docc/StoringValuesInSQLite.md that the
// InteractorsSQLite snippets do not already hold (those of the landing page that moved to the guide stay there),
// run for real on database files in a temporary directory. Inside a private namespace so the names do not clash
// with other articles' snippets.

@Suite private final class StoringValuesInSQLiteSnippets {
    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var text: String
        var isPinned = false
    }

    struct City: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var name: String
    }

    /// Where the app would show a count: here, what a test waits for.
    final class Badge: Sendable {
        private let shown = Mutex<[Int]>([])
        private let changed = DispatchSemaphore(value: 0)

        func show(_ count: Int, after id: String) {
            shown.withLock { $0.append(count) }
            changed.signal()
        }

        /// The counts shown, once one more was shown (or after 30 seconds).
        func waitForCount() -> [Int] {
            _ = changed.wait(timeout: .now() + 30)
            return shown.withLock { $0 }
        }
    }

    /// The app's own record of what happened: here, what a test asserts on.
    final class Telemetry: Sendable {
        private let recorded = Mutex<[DataError]>([])

        func record(_ error: DataError) {
            recorded.withLock { $0.append(error) }
        }

        var errors: [DataError] { recorded.withLock { $0 } }
    }

    /// The application support folder of this test's own, removed when the test ends.
    let appSupport: URL

    init() {
        appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-snippets-\(UUID())")
    }

    deinit {
        try? FileManager.default.removeItem(at: appSupport)
    }

    // MARK: Open a database and its sources; read and write values

    @Test func openingReadingAndWriting() throws {
        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let inbox = try SQLiteDataSource<Note>(database: database, table: "inbox")
        let archive = try SQLiteDataSource<Note>(database: database, table: "archive")

        let scratch = try SQLiteDatabase.inMemory()
        let drafts = try SQLiteDataSource<Note>(database: scratch, table: "drafts")

        _ = try inbox.putAll([Note(id: "n1", text: "Buy milk"), Note(id: "n2", text: "Call Ada", isPinned: true)]).get()
        let pinned = try inbox.getAll(FilterQuery<Note> { $0.isPinned }).get()
        try inbox.delete(IdQuery("n1")).get()

        #expect(pinned.map(\.id) == ["n2"])
        #expect(try inbox.getAll(AllObjectsQuery()).get().map(\.id) == ["n2"])
        #expect(try archive.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try drafts.getAll(AllObjectsQuery()).get().isEmpty)
    }

    // MARK: Ship a read-only database

    /// Compiled, not run: a test process has no bundled `cities.sqlite` (InteractorsSQLiteSnippets runs the same
    /// opening on a file it builds).
    func openTheBundledCities() throws -> SQLiteDataSource<City> {
        let bundledCitiesURL = Bundle.main.url(forResource: "cities", withExtension: "sqlite")!
        let cities = try SQLiteDatabase(fileURL: bundledCitiesURL, readOnly: true)
        let places = try SQLiteDataSource<City>(database: cities, table: "cities")
        return places
    }

    // MARK: Recover from a damaged, moved or deleted file

    @Test func aCacheResetIsToldToTheApp() throws {
        let cachesURL = appSupport
        try FileManager.default.createDirectory(at: cachesURL, withIntermediateDirectories: true)
        try Data(String(repeating: "not a database; ", count: 64).utf8).write(
            to: cachesURL.appendingPathComponent("cache.sqlite")
        )

        let telemetry = Telemetry()
        let (_, diagnostics) = try withCapturedDiagnostics {
            let cache = try SQLiteDatabase(
                fileURL: cachesURL.appendingPathComponent("cache.sqlite"),
                ifCorrupt: .moveAside,
                onCorruption: { error in telemetry.record(error) }
            )
            let notes = try SQLiteDataSource<Note>(database: cache, table: "notes")
            #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        }

        // Told to the app's closure, once, instead of written as a diagnostic (the default report names the file's
        // full path: the capture is process-wide, and other tests' caches are named cache.sqlite too).
        #expect(telemetry.errors.map(\.code) == [.corruptStore])
        #expect(!diagnostics.contains { $0.contains(cachesURL.path) })
        let files = try FileManager.default.contentsOfDirectory(atPath: cachesURL.path)
        #expect(files.contains { $0.hasPrefix("cache.sqlite.corrupt-") })
    }

    // MARK: Know which thread runs what

    @Test func aHandlerBlocksOnTheDatabaseAndABodyReads() throws {
        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        let inbox = try SQLiteDataSource<Note>(database: database, table: "inbox")
        let archive = try SQLiteDataSource<Note>(database: database, table: "archive")
        let note = Note(id: "n1", text: "Buy milk")
        let badge = Badge()
        _ = try inbox.putAll([Note(id: "p1", text: "Call Ada", isPinned: true), Note(id: "u1", text: "Read")]).get()

        notes.put(note).onCompletion(on: .immediate) { saved in
            // On an ix.sqlite.read thread: waiting there for the same database still ends.
            let all = try? notes.getAll(AllObjectsQuery()).get()
            badge.show(all?.count ?? 0, after: saved.id)
        }

        let moved = database.write { transaction in
            let pinned = try inbox.getAll(FilterQuery<Note> { $0.isPinned }).get()  // read in the body's transaction
            try transaction.deleteAll(IdsQuery(pinned.map(\.id)), in: inbox)
            try transaction.putAll(pinned, in: archive)
            return pinned.count
        }

        #expect(badge.waitForCount() == [1])
        #expect(try moved.get() == 1)
        #expect(try inbox.getAll(AllObjectsQuery()).get().map(\.id) == ["u1"])
        #expect(try archive.getAll(AllObjectsQuery()).get().map(\.id) == ["p1"])
    }
}
