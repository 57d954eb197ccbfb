import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// The database file deleted or moved while the database is open: found before a commit is answered and before
/// each read; from then on every operation fails, and no write is acknowledged that is not in the file at the
/// path.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseMovedFileTests {
    static let movedOrDeleted = "the database file was moved or deleted"

    @Test func afterTheFileIsDeletedWritesAndReadsFailAndNothingIsCreatedAtThePath() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let database = try SQLiteDatabase(fileURL: url)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try notes.put(Note(id: "before", text: "acknowledged")).get()
        try FileManager.default.removeItem(at: url)

        let after = try #require(notes.put(Note(id: "after", text: "never acknowledged")).dataError)
        #expect(after.code == .storageFailed)
        #expect(after.message.contains(Self.movedOrDeleted))
        // Six reads at once, as the reproduction did: each fails the same way (none finds an empty file).
        let reads = (0..<6).map { _ in notes.getAll(AllObjectsQuery()) }
        for read in reads {
            #expect(read.dataError?.message.contains(Self.movedOrDeleted) == true)
        }
        #expect(notes.get(IdQuery("before")).dataError?.message.contains(Self.movedOrDeleted) == true)
        #expect(notes.put(Note(id: "after2", text: "never acknowledged")).dataError?.code == .storageFailed)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // Nothing left at the path that a file later put there would read: the log was emptied.
        let log = url.path + "-wal"
        if FileManager.default.fileExists(atPath: log) {
            #expect(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int == 0)
        }
        withExtendedLifetime(database) {}
    }

    @Test func aFileMovedAwayKeepsEverythingAcknowledgedBeforeTheMove() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let moved = directory.file("moved.sqlite")
        do {
            let database = try SQLiteDatabase(fileURL: url)
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.putAll([ada, grace]).get()
            try FileManager.default.moveItem(at: url, to: moved)
            #expect(notes.put(alan).dataError?.message.contains(Self.movedOrDeleted) == true)
            #expect(notes.put(alan).dataError?.message.contains(Self.movedOrDeleted) == true)
        }
        // The moved file alone (its log stayed at the old path, emptied into it) holds what was acknowledged.
        let reopened = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: moved), table: "notes")
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test func aFileDeletedWhileOnlyReadingFailsTheReads() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let database = try SQLiteDatabase(fileURL: url)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try notes.put(ada).get()
        #expect(try notes.get(IdQuery("ada")).get() == ada)
        try FileManager.default.removeItem(at: url)
        #expect(notes.get(IdQuery("ada")).dataError?.message.contains(Self.movedOrDeleted) == true)
        #expect(notes.put(grace).dataError?.message.contains(Self.movedOrDeleted) == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aFileReplacedAtThePathIsNotWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let database = try SQLiteDatabase(fileURL: url)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try notes.put(ada).get()
        // Another database put where this one was.
        try FileManager.default.removeItem(at: url)
        let other = RawSQLite(url)
        #expect(other.execute("CREATE TABLE theirs (x); INSERT INTO theirs VALUES (1)") == 0)
        #expect(notes.put(grace).dataError?.message.contains(Self.movedOrDeleted) == true)
        #expect(other.rows("SELECT name FROM sqlite_master") == [["text theirs"]])
        withExtendedLifetime(database) {}
    }

    @Test func releasingADatabaseWhoseFileWasDeletedRemovesNothingAtThePath() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let other: RawSQLite
        do {
            let database = try SQLiteDatabase(fileURL: url)
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.put(ada).get()
            try FileManager.default.removeItem(at: url)
            #expect(notes.put(grace).dataError?.message.contains(Self.movedOrDeleted) == true)
            // A new database at the path, whose last commit is still in its log.
            other = RawSQLite(url)
            let created = other.execute(
                "PRAGMA journal_mode = WAL; CREATE TABLE theirs (x); INSERT INTO theirs VALUES (1)"
            )
            #expect(created == 0)
        }
        // Closing the first database's connections deleted none of the files at the path: the log is still read.
        #expect(RawSQLite(url).rows("SELECT x FROM theirs") == [["integer 1"]])
        withExtendedLifetime(other) {}
    }
}
