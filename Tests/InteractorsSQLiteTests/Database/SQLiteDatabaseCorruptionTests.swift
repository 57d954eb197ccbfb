import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// A damaged file, or one that is not a database: with `ifCorrupt: .moveAside` it is set aside with its log,
/// reported once, and the database starts empty with its sources' tables, the operation that met the damage
/// running on the fresh one; by default every operation that meets it fails, saying what became of the file.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseCorruptionTests {
    /// Reports of damage, as `onCorruption` receives them.
    final class Reports: Sendable {
        private let errors = LockedBox<[DataError]>([])
        func append(_ error: DataError) { errors.withLock { $0.append(error) } }
        var all: [DataError] { errors.withLock { $0 } }
    }

    /// A database file holding 500 notes, all in the file itself (its log folded in when it was closed).
    static func fileWithNotes(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("app.sqlite")
        let database = try SQLiteDatabase(fileURL: url)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try SQLiteDataSource<Note>(database: database, table: "archive").put(ada).get()
        _ = try notes.putAll((0..<500).map { Note(id: "\($0)", text: String(repeating: "x", count: 200)) }).get()
        return url
    }

    /// Overwrites every page after the first (the schema) with garbage, in place, as a failing disk would: the
    /// tables' pages no longer read.
    static func damage(_ url: URL) throws -> Data {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        let pageSize = 4_096
        #expect(size > 4 * pageSize)
        try handle.seek(toOffset: UInt64(pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: size - pageSize))
        try handle.synchronize()
        return try Data(contentsOf: url)
    }

    /// The files in `directory` moved aside from `name`: the database's, and its -wal and -shm if any.
    static func movedAside(_ name: String, in directory: TemporaryDirectory) throws -> [String] {
        try directory.fileNames().filter { $0.hasPrefix("\(name).corrupt-") }
    }

    /// `app.sqlite` in WAL mode with its last commit still in its log (as a process killed while the database was
    /// open leaves it), and its header overwritten: damage SQLite meets at open, with a log that a connection
    /// closing normally would fold into the file and delete. The file's and the log's bytes.
    static func damagedFileWithALog(in directory: TemporaryDirectory) throws -> (url: URL, file: Data, log: Data) {
        let source = directory.file("source.sqlite")
        let url = directory.file("app.sqlite")
        let files = FileManager.default
        do {
            let raw = RawSQLite(source)
            let made = raw.execute(
                "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x); "
                    + "INSERT INTO t VALUES ('in the file'); PRAGMA wal_checkpoint(TRUNCATE); "
                    + "UPDATE t SET x = 'in the log'"
            )
            #expect(made == 0)
            // Copied while open: the copy's log holds the last commit.
            try files.copyItem(at: source, to: url)
            try files.copyItem(atPath: source.path + "-wal", toPath: url.path + "-wal")
        }
        for name in ["source.sqlite", "source.sqlite-wal", "source.sqlite-shm"] {
            try? files.removeItem(at: directory.file(name))
        }
        let handle = try FileHandle(forUpdating: url)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 100))
        try handle.close()
        let log = try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))
        #expect(log.count > 32)  // a header and at least one frame
        return (url, try Data(contentsOf: url), log)
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideAtOpenAndTheDatabaseStartsEmpty() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let foreign = Data(String(repeating: "{\"notes\": [\"not a database\"]}\n", count: 200).utf8)
        try foreign.write(to: url)
        let reports = Reports()
        let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { reports.append($0) }
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        _ = try notes.put(ada).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])

        let aside = try Self.movedAside("cache.sqlite", in: directory)
        #expect(aside.count == 1)
        let name = try #require(aside.first)
        #expect(try Data(contentsOf: directory.file(name)) == foreign)
        #expect(reports.all.count == 1)
        let report = try #require(reports.all.first)
        #expect(report.code == .corruptStore)
        #expect(report.message.contains("cache.sqlite") && !report.message.contains(directory.url.path))
        #expect(report.fileURL == url)
        #expect(report.message.contains("moved aside to \(name)"))
        #expect(report.message.contains("SQLite error 26"))
    }

    @Test func aDamagedFileIsMovedAsideAtOpenWithItsLogUnfolded() throws {
        let directory = try TemporaryDirectory()
        let (url, file, log) = try Self.damagedFileWithALog(in: directory)
        let reports = Reports()
        let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { reports.append($0) }
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(reports.all.count == 1)
        // Closed without a checkpoint: the log was not folded into the damaged file, nor deleted; both moved aside.
        let aside = try Self.movedAside("app.sqlite", in: directory)
        let name = try #require(aside.first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(aside.contains(name + "-wal"))
        #expect(try Data(contentsOf: directory.file(name)) == file)
        #expect(try Data(contentsOf: directory.file(name + "-wal")) == log)
        withExtendedLifetime(database) {}
    }

    @Test func byDefaultADamagedFileWithALogFailsToOpenAndBothAreLeftAsTheyWere() throws {
        let directory = try TemporaryDirectory()
        let (url, file, log) = try Self.damagedFileWithALog(in: directory)
        let error = try #require(throwsDataError { _ = try SQLiteDatabase(fileURL: url) })
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("left as it is"))
        #expect(try Data(contentsOf: url) == file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")) == log)
    }

    @Test func damageMetLaterMovesTheFileItsLogAndItsSharedMemoryAsideAndTheLogStaysUnfolded() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        var name = ""
        var log = Data()
        do {
            let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { _ in }
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.put(ada).get()  // in the log
            _ = try Self.damage(url)
            #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)  // a read meets the damage
            _ = try notes.put(grace).get()
            let aside = try Self.movedAside("app.sqlite", in: directory).sorted()
            name = try #require(aside.first)
            // <file name>.corrupt-<timestamp>, and that name followed by -wal and -shm.
            #expect(name.hasPrefix("app.sqlite.corrupt-"))
            #expect(aside == [name, name + "-shm", name + "-wal"])
            log = try Data(contentsOf: directory.file(name + "-wal"))
            #expect(log.count > 32)
            #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
        }
        // Released: the connections still on the moved file closed without folding its log into it.
        #expect(try Data(contentsOf: directory.file(name + "-wal")) == log)
        let reopened = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test func readsOpeningConnectionsWhileTheFileIsMovedAsideNeverFindItMissing() throws {
        // Each round: a fresh database (no idle read connection), damage, then reads at once, each opening a read
        // connection while one of them moves the file aside and makes the fresh one.
        for _ in 0..<20 {
            let directory = try TemporaryDirectory()
            let url = try Self.fileWithNotes(in: directory)
            let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { _ in }
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try Self.damage(url)
            let reads = (0..<8).map { _ in notes.getAll(AllObjectsQuery()) }
            for read in reads { #expect(try read.get().isEmpty) }
            _ = try notes.put(ada).get()
            #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
        }
    }

    @Test func byDefaultTheDamageIsReportedOnStandardError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try Data("not a database at all, not even close to one; long enough to have a header".utf8).write(to: url)
        let capture = DiagnosticCapture()
        _ = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside)
        let lines = capture.close().filter { $0.contains(url.path) }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("InteractorsSQLite: ") == true)
        #expect(lines.first?.contains("moved aside to cache.sqlite.corrupt-") == true)
    }

    @Test func aReadThatMeetsDamageUnderAnOpenDatabaseFindsAFreshOneWithItsTables() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        let reports = Reports()
        let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { reports.append($0) }
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        let archive = try SQLiteDataSource<Note>(database: database, table: "archive")
        let damaged = try Self.damage(url)

        // The read that met the damage ran on the fresh database: a cache miss.
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(notes.get(IdQuery("1")).dataError?.code == .notFound)
        // Both sources' tables were created again.
        #expect(try archive.getAll(AllObjectsQuery()).get().isEmpty)
        _ = try notes.put(grace).get()
        _ = try archive.put(alan).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
        #expect(try archive.getAll(AllObjectsQuery()).get() == [alan])

        #expect(reports.all.count == 1)
        let name = try #require(
            try Self.movedAside("app.sqlite", in: directory).first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        )
        #expect(try Data(contentsOf: directory.file(name)).prefix(4_096) == damaged.prefix(4_096))
        #expect(reports.all.first?.message.contains("moved aside to \(name)") == true)
        // Opened again, the fresh file is what the database now holds.
        let reopened = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test func aWriteThatMeetsDamageIsAppliedToAFreshDatabase() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        let reports = Reports()
        let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { reports.append($0) }
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try Self.damage(url)
        _ = try notes.put(Note(id: "7", text: "written after the damage")).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [Note(id: "7", text: "written after the damage")])
        #expect(reports.all.count == 1)
    }

    @Test func releasingTheDatabaseAfterAMoveAsideLeavesTheFreshFilesAlone() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        let other: RawSQLite
        do {
            let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { _ in }
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try Self.damage(url)
            #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)  // a reader moved the file aside
            // Another connection writes to the fresh file; its commit stays in the log while it is open.
            other = RawSQLite(url)
            #expect(other.execute("INSERT INTO notes (id, value, stored_at) VALUES ('theirs', '{}', 0)") == 0)
        }
        // The writer's connection, still on the moved file, closed without deleting the fresh file's log.
        #expect(RawSQLite(url).rows("SELECT id FROM notes") == [["text theirs"]])
        withExtendedLifetime(other) {}
    }

    @Test func readsMeetingTheDamageAtOnceReportItOnce() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        let reports = Reports()
        let database = try SQLiteDatabase(fileURL: url, ifCorrupt: .moveAside) { reports.append($0) }
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try Self.damage(url)
        let reads = (0..<8).map { _ in notes.getAll(AllObjectsQuery()) }
        for read in reads { #expect(try read.get().isEmpty) }
        #expect(reports.all.count == 1)
        #expect(
            try Self.movedAside("app.sqlite", in: directory).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
                .count == 1
        )
    }

    @Test func byDefaultALaterOperationFailsSayingTheFileStaysInUse() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        let database = try SQLiteDatabase(fileURL: url)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        let damaged = try Self.damage(url)
        let error = try #require(notes.getAll(AllObjectsQuery()).dataError)
        #expect(error.code == .corruptStore)
        #expect(error.message.contains(url.lastPathComponent) && !error.message.contains(directory.url.path))
        #expect(error.fileURL == url)
        #expect(error.message.contains("SQLite error 11"))
        #expect(!error.message.contains("left as it is"))
        #expect(error.message.contains("still open"))
        #expect(try Data(contentsOf: url) == damaged)
        #expect(try Self.movedAside("app.sqlite", in: directory).isEmpty)
    }

    @Test func aReadOnlyDatabaseCannotMoveAside() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.fileWithNotes(in: directory)
        let error = try #require(
            throwsDataError { _ = try SQLiteDatabase(fileURL: url, readOnly: true, ifCorrupt: .moveAside) }
        )
        #expect(error.code == .storageFailed)
        #expect(error.message.contains("readOnly"))
    }
}
