import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// Opening a database: files and directories created when missing, committed writes found again, foreign and
/// damaged files refused and kept, paths that cannot be used said plainly.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseOpeningTests {
    @Test func opensAFileCreatingItAndItsDirectories() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("a/b/app.sqlite")
        let database = try SQLiteDatabase(fileURL: url)
        _ = try SQLiteDataSource<Note>(database: database, table: "notes").put(ada).get()
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(database.fileURL == url)
    }

    @Test func reopeningTheFileFindsEverythingCommitted() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        do {
            let database = try SQLiteDatabase(fileURL: url)
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.putAll([ada, grace]).get()
            try notes.delete(IdQuery("ada")).get()
        }
        let reopened = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test func releasingTheDatabaseClosesTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        weak var released: SQLiteDatabase?
        do {
            let database = try SQLiteDatabase(fileURL: url)
            released = database
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.put(ada).get()
            _ = try notes.getAll(AllObjectsQuery()).get()
            #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        }
        // The last connection to close moves the log into the file and removes it.
        #expect(released == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func inMemoryDatabasesStartEmptyAndAreEachTheirOwn() throws {
        let first = try SQLiteDatabase.inMemory()
        let second = try SQLiteDatabase.inMemory()
        #expect(first.fileURL == nil)
        _ = try SQLiteDataSource<Note>(database: first, table: "notes").put(ada).get()
        let other = try SQLiteDataSource<Note>(database: second, table: "notes")
        #expect(try other.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func anEmptyFileIsAnEmptyDatabase() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        try Data().write(to: url)
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        _ = try notes.put(ada).get()
        #expect(try notes.get(IdQuery("ada")).get() == ada)
    }

    @Test func aFileThatIsNotADatabaseFailsWithCorruptStoreAndKeepsItsBytes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.sqlite")
        let foreign = Data(String(repeating: "{\"notes\": [\"not a database\"]}\n", count: 200).utf8)
        try foreign.write(to: url)
        let error = try #require(throwsDataError { _ = try SQLiteDatabase(fileURL: url) })
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("notes.sqlite") && !error.message.contains(directory.url.path))
        #expect(error.fileURL == url)
        #expect(error.message.contains("SQLite error 26"))
        #expect(try Data(contentsOf: url) == foreign)
        #expect(try directory.fileNames() == ["notes.sqlite"])
    }

    @Test func aDamagedDatabaseFailsWithCorruptStoreAndKeepsItsBytes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        do {
            let database = try SQLiteDatabase(fileURL: url)
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.putAll((0..<500).map { Note(id: "\($0)", text: String(repeating: "x", count: 200)) }).get()
        }
        // Everything after the first page (the schema) overwritten: the table's pages are garbage.
        var bytes = try Data(contentsOf: url)
        let pageSize = 4_096
        #expect(bytes.count > 4 * pageSize)
        bytes.replaceSubrange(pageSize..<bytes.count, with: Data(repeating: 0xA5, count: bytes.count - pageSize))
        try bytes.write(to: url)
        let error = try #require(
            throwsDataError {
                let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
                _ = try notes.getAll(AllObjectsQuery()).get()
            }
        )
        #expect(error.code == .corruptStore)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aPathThatCannotBeCreatedFailsWithStorageFailed() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("plain-file")
        try Data("x".utf8).write(to: file)
        let underAFile = try #require(
            throwsDataError { _ = try SQLiteDatabase(fileURL: file.appendingPathComponent("db.sqlite")) }
        )
        #expect(underAFile.code == .storageFailed)
        #expect(underAFile.message.contains("plain-file"))

        // A directory where the file should be: SQLite cannot open it (SQLITE_CANTOPEN, 14).
        let error = try #require(throwsDataError { _ = try SQLiteDatabase(fileURL: directory.url) })
        #expect(error.code == .storageFailed)
        #expect(error.message.contains("SQLite error 14"))
    }

    @Test func reservedOrEmptyTableNamesAreRefused() throws {
        let database = try SQLiteDatabase.inMemory()
        for name in ["", "sqlite_master", "SQLite_stat1", "interactors_cache_lists"] {
            let error = throwsDataError { _ = try SQLiteDataSource<Note>(database: database, table: name) }
            #expect(error?.code == .storageFailed, "\(name)")
        }
    }

    @Test func anyOtherTableNameWorksQuotesAndSpacesIncluded() throws {
        let database = try SQLiteDatabase.inMemory()
        let odd = try SQLiteDataSource<Note>(database: database, table: "my \"odd\" table; DROP TABLE x")
        _ = try odd.put(ada).get()
        #expect(try odd.getAll(AllObjectsQuery()).get() == [ada])
        #expect(odd.table == "my \"odd\" table; DROP TABLE x")
    }

    @Test func aTableWithAColumnALaterVersionAddedStillOpens() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        do {
            _ = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes").put(ada).get()
        }
        #expect(RawSQLite(url).execute("ALTER TABLE notes ADD COLUMN cached_at REAL") == 0)
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        _ = try notes.put(grace).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test func anotherProgramsTableFailsWithCorruptStoreAndIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let raw = RawSQLite(url)
        #expect(raw.execute("CREATE TABLE notes (title TEXT); INSERT INTO notes VALUES ('theirs')") == 0)
        let error = throwsDataError {
            _ = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("title") == true)
        // The database stays open on the file (its other tables are written): the message says what became of the
        // table, never "left as it is" of a file writes still go into.
        #expect(error?.message.contains("left as it is") == false)
        #expect(raw.rows("SELECT title FROM notes") == [["text theirs"]])
    }
}

/// The `DataError` `body` throws; nil if it throws nothing or something else.
func throwsDataError(_ body: () throws -> Void) -> DataError? {
    do {
        try body()
        return nil
    } catch {
        return error as? DataError
    }
}
