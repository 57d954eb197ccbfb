import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A database opened `readOnly`, as one shipped in an app's bundle: reads work; writes fail saying it is
/// read-only; nothing is created in or next to the file, whose journal mode stays as it was.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseReadOnlyTests {
    /// A database file in rollback-journal mode holding ada and grace, as a build step would ship it.
    static func shippedDatabase(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("shipped.sqlite")
        do {
            let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
            _ = try notes.putAll([ada, grace]).get()
        }
        let raw = RawSQLite(url)
        #expect(raw.rows("PRAGMA journal_mode = DELETE") == [["text delete"]])
        return url
    }

    @Test func readsWorkWritesFailAndNothingIsCreatedOrChanged() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.shippedDatabase(in: directory)
        let bytes = try Data(contentsOf: url)
        let database = try SQLiteDatabase(fileURL: url, readOnly: true)
        #expect(database.isReadOnly)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        #expect(notes.isReadOnly)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(try notes.get(IdQuery("grace")).get() == grace)

        let writes: [DataError?] = [
            notes.put(alan).dataError,
            notes.putAll([alan]).dataError,
            notes.delete(IdQuery("ada")).dataError,
            notes.deleteAll(AllObjectsQuery()).dataError,
            database.write { _ in 1 }.dataError,
        ]
        for error in writes {
            #expect(error?.code == .storageFailed)
            #expect(error?.message.contains("read-only") == true)
        }
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(try directory.fileNames() == ["shipped.sqlite"])
        #expect(try Data(contentsOf: url) == bytes)
        #expect(RawSQLite(url).rows("PRAGMA journal_mode") == [["text delete"]])
    }

    @Test func aMissingFileFailsToOpenAndIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("missing.sqlite")
        let error = try #require(throwsDataError { _ = try SQLiteDatabase(fileURL: url, readOnly: true) })
        #expect(error.code == .storageFailed)
        #expect(error.message.contains("missing.sqlite") && !error.message.contains(directory.url.path))
        #expect(error.fileURL == url)
        #expect(try directory.fileNames().isEmpty)
    }

    @Test func aSourceOnATableThatDoesNotExistFailsAndCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.shippedDatabase(in: directory)
        let database = try SQLiteDatabase(fileURL: url, readOnly: true)
        let error = try #require(throwsDataError { _ = try SQLiteDataSource<Note>(database: database, table: "other") })
        #expect(error.code == .storageFailed)
        #expect(error.message.contains("other"))
        #expect(RawSQLite(url).rows("SELECT name FROM sqlite_master WHERE name = 'other'").isEmpty)
    }

    @Test func aReadOnlySourceOnAWritableDatabaseNeitherCreatesNorWrites() throws {
        let database = try DatabaseKind.file.make()
        _ = try database.notes([ada])
        let readOnly = try SQLiteDataSource<Note>(database: database.database, table: "notes", readOnly: true)
        #expect(try readOnly.getAll(AllObjectsQuery()).get() == [ada])
        #expect(readOnly.put(grace).dataError?.message.contains("read-only") == true)
        let refused = database.database.write { transaction in try transaction.put(grace, in: readOnly) }
        #expect(refused.dataError?.message.contains("read-only") == true)
        #expect(try readOnly.getAll(AllObjectsQuery()).get() == [ada])
        #expect(
            throwsDataError {
                _ = try SQLiteDataSource<Note>(database: database.database, table: "none", readOnly: true)
            }?.code == .storageFailed
        )
    }

    @Test func aWritableDatabaseInAnotherJournalModeIsSwitchedToWAL() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.shippedDatabase(in: directory)
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        _ = try notes.put(alan).get()
        #expect(RawSQLite(url).rows("PRAGMA journal_mode") == [["text wal"]])
    }

    /// As a user without write permission: only where the tests do not run as root, whom permissions do not stop.
    @Test(.enabled(if: geteuid() != 0))
    func aFileThatCannotBeWrittenOpensReadOnly() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.shippedDatabase(in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.url.path)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        }
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url, readOnly: true), table: "notes")
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(notes.put(alan).dataError?.message.contains("read-only") == true)
    }
}
