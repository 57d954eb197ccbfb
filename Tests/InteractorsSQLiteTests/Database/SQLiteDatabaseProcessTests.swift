// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing
import TestThreads

/// Another process on the same file (SQLiteStoreFixture): writing at once, holding the write lock, killed inside
/// a transaction.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseProcessTests {
    @Test func twoProcessesWritingAtOnceLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        let child = try SQLiteFixture.start(["write", url.path, "child", "200"])
        defer { child.stop() }
        var failures: [DataError] = []
        for index in 0..<200 {
            if let error = notes.put(Note(id: "parent-\(index)", text: "written by the test")).dataError {
                failures.append(error)
            }
        }
        #expect(child.waitForLine(guardSeconds: 120) { $0 == "done" || $0.hasPrefix("error") } == "done")
        #expect(failures.isEmpty)
        let stored = Set(try notes.getAll(AllObjectsQuery()).get().map(\.id))
        #expect(stored.count == 400)
        #expect(stored.isSuperset(of: (0..<200).map { "child-\($0)" }))
    }

    @Test func anotherProcessOpeningTheFileSeesEverythingCommitted() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        _ = try notes.putAll((0..<120).map { Note(id: "\($0)", text: "kept") }).get()
        try notes.delete(IdQuery("7")).get()
        // The database is still open here: the child reads through the write-ahead log.
        let child = try SQLiteFixture.start(["read", url.path])
        defer { child.stop() }
        #expect(child.waitForLine { $0.hasPrefix("count ") || $0.hasPrefix("error") } == "count 119")
    }

    @Test func aWriteWaitsForAnotherProcesssTransactionRatherThanFail() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        let child = try SQLiteFixture.start(["hold", url.path, "1500"])
        defer { child.stop() }
        #expect(child.waitForLine { $0 == "holding" || $0.hasPrefix("error") } == "holding")
        // The child holds the write lock for 1.5 s; reads go on, the put waits for it and then succeeds.
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        _ = try notes.put(ada).get()
        #expect(child.waitForLine { $0 == "committed" || $0.hasPrefix("error") } == "committed")
        let stored = try notes.getAll(AllObjectsQuery()).get()
        #expect(stored.count == 51)
        #expect(stored.contains(ada))
    }

    @Test func openingASourceOnAnExistingTableDoesNotWaitForAnotherProcesssWrite() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        do {
            _ = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes").put(ada).get()
        }
        let child = try SQLiteFixture.start(["hold", url.path, "0"])
        defer { child.kill() }
        #expect(child.waitForLine { $0 == "holding" || $0.hasPrefix("error") } == "holding")
        // The child holds the write lock (BEGIN IMMEDIATE) until it is killed.
        let clock = ContinuousClock()
        let start = clock.now
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        let opened = clock.now - start
        #expect(opened < .seconds(1), "opening took \(opened)")
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test func aChildKilledInsideATransactionLeavesNoneOfItAndTheDatabaseWritable() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        _ = try notes.put(ada).get()
        let child = try SQLiteFixture.start(["hold", url.path, "0"])
        #expect(child.waitForLine { $0 == "holding" || $0.hasPrefix("error") } == "holding")
        child.kill()
        // The lock dies with the process: the next write goes through, and nothing of the child's is there.
        _ = try notes.put(grace).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
        let reopened = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test func aChildKilledWhileWritingLeavesEveryAcknowledgedBatchWholeAndNoneHalf() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let child = try SQLiteFixture.start(["batches", url.path])
        _ = child.waitForLine { $0 == "batch 30" || $0.hasPrefix("error") }
        child.kill()
        let acknowledged = child.output.compactMap { line in line.hasPrefix("batch ") ? Int(line.dropFirst(6)) : nil }
        #expect(acknowledged.count >= 30)
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        let stored = try notes.getAll(AllObjectsQuery()).get()
        let byBatch = Dictionary(grouping: stored) { $0.id.split(separator: "-")[1] }
        #expect(byBatch.values.allSatisfy { $0.count == 10 })
        for batch in acknowledged { #expect(byBatch["\(batch)"]?.count == 10, "batch \(batch)") }
        _ = try notes.put(ada).get()
        #expect(try notes.get(IdQuery("ada")).get() == ada)
    }
}
#endif
