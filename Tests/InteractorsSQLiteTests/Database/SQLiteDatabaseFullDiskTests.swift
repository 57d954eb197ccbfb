// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// A disk that fills up under a write, in a child process (SQLiteStoreFixture): SQLite then rolls the whole
/// transaction back by itself. A body that catches the failure and writes on commits nothing; a write that fails
/// in a group fails alone, and the others commit.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseFullDiskTests {
    /// The two ways the tests fill the disk, and what SQLite answers to each.
    enum Limit: String, CaseIterable, CustomTestStringConvertible {
        /// `setrlimit(RLIMIT_FSIZE)` at 1 MB: the write fails with EFBIG, SQLite answers SQLITE_IOERR_WRITE (778).
        case fileSize
        /// `PRAGMA max_page_count` at 100 pages more: SQLite answers SQLITE_FULL (13).
        case pages

        var testDescription: String { rawValue }

        var arguments: [String] {
            switch self {
            case .fileSize: ["fsize", "1000000"]
            case .pages: ["pages", "100"]
            }
        }

        var sqliteError: String {
            switch self {
            case .fileSize: "SQLite error 778"
            case .pages: "SQLite error 13"
            }
        }
    }

    /// Runs the fixture's `mode` on a new database file with `limit`; its output, and the file.
    private func runFixture(_ mode: String, _ limit: Limit) throws -> (output: [String], file: URL, TemporaryDirectory)
    {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let child = try SQLiteFixture.start([mode, url.path] + limit.arguments)
        defer { child.stop() }
        #expect(child.waitForLine(guardSeconds: 120) { $0 == "done" || $0.hasPrefix("error") } == "done")
        #expect(child.waitForExit())
        return (child.output, url, directory)
    }

    @Test(arguments: Limit.allCases)
    func aBodyThatCatchesAFullDiskAndWritesOnCommitsNothing(limit: Limit) throws {
        let (output, url, directory) = try runFixture("fill", limit)
        let failed = try #require(output.first { $0.hasPrefix("failed after") })
        #expect(failed.contains(limit.sqliteError))
        // The put after the failure fails with the same error, and so does the write.
        let after = try #require(output.first { $0.hasPrefix("after") })
        #expect(after.hasPrefix("after error storageFailed"))
        #expect(after.contains(limit.sqliteError))
        let write = try #require(output.first { $0.hasPrefix("write") })
        #expect(write.hasPrefix("write error storageFailed"))
        #expect(write.contains(limit.sqliteError))
        // Opened again (without the limit): nothing of the body, "after" included.
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["before"])
        withExtendedLifetime(directory) {}
    }

    @Test(arguments: Limit.allCases)
    func aWriteThatFillsTheDiskInAGroupFailsAloneAndTheOthersCommit(limit: Limit) throws {
        let (output, url, directory) = try runFixture("group", limit)
        #expect(output.contains("small-1 ok"))
        #expect(output.contains("small-2 ok"))
        let big = try #require(output.first { $0.hasPrefix("big") })
        #expect(big.hasPrefix("big error storageFailed"))
        #expect(big.contains(limit.sqliteError))
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["before", "small-1", "small-2"])
        withExtendedLifetime(directory) {}
    }
}
#endif
