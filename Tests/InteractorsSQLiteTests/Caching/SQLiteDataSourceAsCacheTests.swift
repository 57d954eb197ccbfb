import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// A `SQLiteDataSource` as a `CacheRepository`'s cache, as the other local stores serve, with the repository's lists
/// and times in the database. (The repository's own behaviours run over SQLite too, in InteractorsDataTests:
/// CacheRepositoryListTests and CacheRepositoryPersistenceTests.)
@Suite(.onThreadsOfTheirOwn) struct SQLiteDataSourceAsCacheTests {
    @Test func whatTheMainSourceAnswersIsKeptInTheDatabase() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let server = InMemoryDataSource<Note>()
        _ = try server.putAll([ada, grace]).get()
        do {
            let cache = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
            let notes = CacheRepository(main: server, cache: cache)
            #expect(try notes.get(IdQuery("ada"), operation: .mainSync).get() == ada)
            #expect(try cache.get(IdQuery("ada")).get() == ada)
            _ = try notes.put(alan, operation: .mainSync).get()
        }
        // A restarted app finds them in the file.
        let reopened = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [ada, alan])
        let notes = CacheRepository(main: server, cache: reopened)
        #expect(try notes.get(IdQuery("alan"), operation: .cache).get() == alan)
    }

    @Test func anAppRestartedOfflineFindsItsLastListAndItsStoredAt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let server = try Server([ada, grace, alan])
        let storedAt: Date
        do {
            let database = try SQLiteDatabase(fileURL: url)
            let notes = CacheRepository(
                main: server,
                cache: try SQLiteDataSource<Note>(database: database, table: "notes")
            )
            _ = try notes.getAll(AllObjectsQuery(), operation: .mainSync).get()
            storedAt = try #require(try notes.fetchAll(AllObjectsQuery()).get().storedAt)
        }
        // The app is killed; it starts again without network, on a new database over the same file.
        server.isOffline = true
        let database = try SQLiteDatabase(fileURL: url)
        let notes = CacheRepository(main: server, cache: try SQLiteDataSource<Note>(database: database, table: "notes"))
        let offline = try notes.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(offline.value == [ada, grace, alan])
        #expect(offline.storedAt == storedAt)  // a REAL column keeps a Date's seconds exactly
        #expect({ if case .cacheAfterFailure(let error) = offline.origin { error is URLError } else { false } }())
        let cached = try notes.fetchAll(AllObjectsQuery()).get()
        #expect(cached.storedAt == storedAt)
        #expect({ if case .cache = cached.origin { true } else { false } }())
    }

    @Test func aListWhoseValuesWereLostBehindItsBackIsNotAnsweredFromTheCache() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let database = try SQLiteDatabase(fileURL: url)
        let raw = RawSQLite(url)
        // Ids of every kind, read back from the keys the list keeps.
        try expectListNotWhole(of: [ada, grace], in: database, raw: raw, losing: "'grace'")
        let counters = [SQLiteKeyTests.Counter(id: 1, count: 0), SQLiteKeyTests.Counter(id: 2, count: 0)]
        try expectListNotWhole(of: counters, in: database, raw: raw, losing: "2")
        let uuids = [UUID(), UUID()]
        let tagged = uuids.map { SQLiteKeyTests.Tagged(id: $0) }
        try expectListNotWhole(of: tagged, in: database, raw: raw, losing: "'\(uuids[1].uuidString)'")
        let books = [SQLiteKeyTests.Book(id: .top), SQLiteKeyTests.Book(id: .bottom)]
        try expectListNotWhole(of: books, in: database, raw: raw, losing: "'bottom'")
        typealias Cell = SQLiteKeyTests.Cell
        let a1 = Cell.Position(row: 1, column: 1), b2 = Cell.Position(row: 2, column: 2)
        try expectListNotWhole(
            of: [Cell(id: a1, formula: ""), Cell(id: b2, formula: "")],
            in: database,
            raw: raw,
            losing: #"'{"column":2,"row":2}'"#
        )
    }

    /// Stores `values` as a list, deletes the row of `key` with SQL behind the store's back, and checks that the
    /// list still names it, so that the repository asks the main source again.
    private func expectListNotWhole<Value: Codable & Identifiable & Sendable & Equatable>(
        of values: [Value],
        in database: SQLiteDatabase,
        raw: RawSQLite,
        losing key: String
    ) throws where Value.ID: Codable & Sendable {
        let table = "\(Value.self)".lowercased()
        let cache = try SQLiteDataSource<Value>(database: database, table: table)
        let server = try Server(values)
        let repository = CacheRepository(main: server, cache: cache)
        _ = try repository.getAll(AllObjectsQuery()).get()
        #expect(raw.execute("DELETE FROM \(table) WHERE id = \(key)") == 0)
        let list = try #require(try cache.cachedList(forKey: AllObjectsQuery().cacheKey).get())
        #expect(list.ids == values.map(\.id))
        #expect(list.entries.map(\.value) == [values[0]])
        #expect(try repository.getAll(AllObjectsQuery()).get() == values)
        #expect(server.reads == 2)
    }

    @Test func aListWithARowThatNoLongerDecodesIsAskedOfTheMainSource() throws {
        let database = try DatabaseKind.file.make()
        struct Tagged: Codable, Identifiable, Sendable, Equatable {
            var id: String
            var tag: String
        }
        let server = try Server([Tagged(id: "ada", tag: "math"), Tagged(id: "grace", tag: "navy")])
        _ = try CacheRepository(main: server, cache: try database.source("tagged", of: Tagged.self))
            .getAll(AllObjectsQuery()).get()
        // Another version of the app stored grace in a shape this one cannot read.
        _ = try database.source("tagged", of: Note.self).put(Note(id: "grace", text: "no tag")).get()
        let skipping = try database.source("tagged", of: Tagged.self, undecodableRows: .skip)
        let (read, diagnostics) = try capturingDiagnostics {
            try skipping.cachedList(forKey: AllObjectsQuery().cacheKey).get()
        }
        #expect(diagnostics.contains { $0.hasPrefix("InteractorsSQLite: skipped row grace of") })
        let list = try #require(read)
        #expect(list.ids == ["ada", "grace"])
        #expect(list.entries.map(\.value.id) == ["ada"])
        let failing = try database.source("tagged", of: Tagged.self)
        #expect(failing.cachedList(forKey: AllObjectsQuery().cacheKey).dataError?.code == .mappingFailed)
        // Either way the repository asks the main source, and stores grace again as it reads her.
        let repository = CacheRepository(main: server, cache: skipping)
        #expect(try repository.getAll(AllObjectsQuery()).get().map(\.id) == ["ada", "grace"])
        #expect(server.reads == 2)
        #expect(try failing.cachedList(forKey: AllObjectsQuery().cacheKey).get()?.entries.count == 2)
    }
}
