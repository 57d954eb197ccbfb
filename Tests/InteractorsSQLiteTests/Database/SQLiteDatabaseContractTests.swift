import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// The public names issue 26 gives, called the ways an app calls them: one initialiser whose new parameters are
/// each defaulted (so the calls written before them still compile), an enum of two policies, a `@Sendable`
/// report, typed throws, and a source's `readOnly`.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseContractTests {
    @Test func theDatabasesInitialiserIsTheOneTheIssueNames() throws {
        // Its exact type: labels, order, parameter types, and `throws(DataError)`.
        let initialiser:
            (URL, Bool, CorruptDatabase, @escaping @Sendable (DataError) -> Void) throws(DataError) -> SQLiteDatabase =
                SQLiteDatabase.init(fileURL:readOnly:ifCorrupt:onCorruption:)
        let directory = try TemporaryDirectory()
        let database = try initialiser(directory.file("app.sqlite"), false, .fail, { _ in })
        #expect(!database.isReadOnly)
    }

    @Test func eachNewParameterIsDefaultedAndTheNaturalCallsCompile() throws {
        let directory = try TemporaryDirectory()
        let reports = LockedBox<[DataError]>([])
        let databases: [SQLiteDatabase] = [
            try SQLiteDatabase(fileURL: directory.file("plain.sqlite")),  // today's call
            try SQLiteDatabase(fileURL: directory.file("cache.sqlite"), ifCorrupt: .moveAside),
            try SQLiteDatabase(fileURL: directory.file("logged.sqlite"), ifCorrupt: .moveAside) { error in
                reports.withLock { $0.append(error) }
            },
            try SQLiteDatabase(
                fileURL: directory.file("named.sqlite"),
                ifCorrupt: .moveAside,
                onCorruption: { error in reports.withLock { $0.append(error) } }
            ),
            try SQLiteDatabase(
                fileURL: directory.file("report.sqlite"),
                onCorruption: SQLiteDatabase.reportToStandardError
            ),
            try SQLiteDatabase(
                fileURL: directory.file("all.sqlite"),
                readOnly: false,
                ifCorrupt: .fail,
                onCorruption: { _ in }
            ),
        ]
        for database in databases {
            let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
            _ = try notes.put(ada).get()
        }
        // Opened read-only, by label alone; a source on it, and a read-only source on a writable database.
        let shipped = try SQLiteDatabase(fileURL: directory.file("plain.sqlite"), readOnly: true)
        let reader = try SQLiteDataSource<Note>(database: shipped, table: "notes")
        #expect(try reader.getAll(AllObjectsQuery()).get() == [ada])
        let readOnly = try SQLiteDataSource<Note>(database: databases[0], table: "notes", readOnly: true)
        let skipping = try SQLiteDataSource<Note>(
            database: databases[0],
            table: "notes",
            undecodableRows: .skip,
            readOnly: true
        )
        #expect(readOnly.isReadOnly && skipping.isReadOnly)
        #expect(reports.withLock { $0 }.isEmpty)
    }

    @Test func theInitialisersThrowDataErrorsTyped() throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try SQLiteDatabase(fileURL: directory.file("missing.sqlite"), readOnly: true)
            Issue.record("a missing file opened read-only")
        } catch {
            // `error` is a DataError, statically: no cast.
            #expect(error.code == .storageFailed)
        }
        let database = try SQLiteDatabase(fileURL: directory.file("app.sqlite"))
        do {
            _ = try SQLiteDataSource<Note>(database: database, table: "missing", readOnly: true)
            Issue.record("a read-only source opened a missing table")
        } catch {
            #expect(error.code == .storageFailed)
        }
    }

    @Test func corruptDatabaseHasTwoPoliciesAndFailIsTheDefault() throws {
        // A struct with static members (more policies may come): a `switch` over it needs a `default`.
        func describe(_ policy: CorruptDatabase) -> String {
            switch policy {
            case .fail: "fail"
            case .moveAside: "moveAside"
            default: "another"
            }
        }
        #expect([CorruptDatabase.fail, .moveAside].map(describe) == ["fail", "moveAside"])
        #expect([CorruptDatabase.fail, .moveAside].map(\.description) == ["fail", "moveAside"])
        #expect(Set([CorruptDatabase.fail, .moveAside, .fail]).count == 2)
        // The default: a file that is not a database fails to open, and stays where it is.
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        try Data(String(repeating: "not a database; ", count: 100).utf8).write(to: url)
        let error = try #require(throwsDataError { _ = try SQLiteDatabase(fileURL: url) })
        #expect(error.code == .corruptStore)
        #expect(try directory.fileNames() == ["app.sqlite"])
    }
}
