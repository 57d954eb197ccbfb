import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import InteractorsTestKit
import Testing

// The code blocks of Sources/InteractorsSQLite/InteractorsSQLite.docc, run for real on a database file in a
// temporary directory (the cache's main source at an address nothing listens on: it is not asked).

@Suite private struct InteractorsSQLiteSnippets {
    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var text: String
        var isPinned = false
    }

    @Test func theOverviewStoresAndReadsNotes() throws {
        let appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: appSupport) }

        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")

        _ = try notes.put(Note(id: "n1", text: "Buy milk")).get()
        let pinned = try notes.getAll(FilterQuery<Note> { $0.isPinned }).get()

        #expect(pinned.isEmpty)
        #expect(try notes.get(IdQuery("n1")).get().text == "Buy milk")
    }

    @Test func aTransactionMovesANoteBetweenTables() throws {
        let database = try SQLiteDatabase.inMemory()
        let inbox = try SQLiteDataSource<Note>(database: database, table: "inbox")
        let archive = try SQLiteDataSource<Note>(database: database, table: "archive")
        let note = Note(id: "n1", text: "Buy milk")
        _ = try inbox.put(note).get()

        try database.write { transaction in
            try transaction.delete(IdQuery(note.id), in: inbox)
            try transaction.put(note, in: archive)
        }.get()

        #expect(try inbox.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try archive.getAll(AllObjectsQuery()).get() == [note])
    }

    @Test func aCacheAnswersTheLastRunsListWithItsAge() throws {
        let appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: appSupport) }
        let server = InMemoryDataSource<Note>()
        _ = try server.put(Note(id: "n1", text: "Buy milk")).get()
        do {  // the last run
            let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
            let cache = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try CacheRepository(main: server, cache: cache).getAll(AllObjectsQuery()).get()
        }
        // Not asked: the list is answered from the database.
        let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:1")!)

        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let notes = CacheRepository(
            main: RESTDataSource<Note>(client: client, path: "notes"),
            cache: try SQLiteDataSource<Note>(database: database, table: "notes")
        )
        let fetched = try notes.fetchAll(AllObjectsQuery()).get()  // the last run's list: no request
        if let storedAt = fetched.storedAt { print("\(fetched.value.count) notes, stored at \(storedAt)") }

        #expect(fetched.value.map(\.id) == ["n1"])
        #expect({ if case .cache = fetched.origin { true } else { false } }())
    }

    @Test func aCacheDatabaseMovesADamagedFileAside() throws {
        let cachesURL = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cachesURL) }
        try FileManager.default.createDirectory(at: cachesURL, withIntermediateDirectories: true)
        try Data(String(repeating: "not a database; ", count: 64).utf8).write(
            to: cachesURL.appendingPathComponent("cache.sqlite")
        )

        let (_, diagnostics) = try withCapturedDiagnostics {
            let cache = try SQLiteDatabase(
                fileURL: cachesURL.appendingPathComponent("cache.sqlite"),
                ifCorrupt: .moveAside
            )
            let notes = try SQLiteDataSource<Note>(database: cache, table: "notes")
            #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        }

        #expect(diagnostics.contains { $0.contains("moved aside to cache.sqlite.corrupt-") })
    }

    @Test func aBundledDatabaseOpensReadOnly() throws {
        struct City: Codable, Identifiable, Sendable, Equatable {
            var id: String
            var name: String
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundledCitiesURL = directory.appendingPathComponent("cities.sqlite")
        do {  // what a build step ships
            let database = try SQLiteDatabase(fileURL: bundledCitiesURL)
            _ = try SQLiteDataSource<City>(database: database, table: "cities").put(City(id: "ber", name: "Berlin"))
                .get()
        }

        let cities = try SQLiteDatabase(fileURL: bundledCitiesURL, readOnly: true)
        let places = try SQLiteDataSource<City>(database: cities, table: "cities")

        #expect(try places.get(IdQuery("ber")).get().name == "Berlin")
        #expect(places.put(City(id: "par", name: "Paris")).error != nil)
    }

    /// Compiled, not run: its handler runs on the main queue, which a Linux test process does not service.
    func observingChanges(notes: SQLiteDataSource<Note>) -> DataObservation {
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue.main) { result in
            if case .success(let notes) = result { print("\(notes.count) notes") }
        }
        return observation
    }
}
