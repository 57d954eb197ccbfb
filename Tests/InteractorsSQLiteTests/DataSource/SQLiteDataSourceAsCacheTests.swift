import DataTestSupport
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// A `SQLiteDataSource` as a `CacheRepository`'s cache, as the other local stores serve.
@Suite struct SQLiteDataSourceAsCacheTests {
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
}
