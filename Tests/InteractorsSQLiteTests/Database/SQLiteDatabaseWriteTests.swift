import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// `write(_:)`: a body's writes commit together or not at all, across tables; the body may block without
/// blocking reads; writes that cannot work there are refused at once.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseWriteTests {
    @Test(arguments: DatabaseKind.allCases)
    func aBodyCommitsItsWritesOnSeveralTablesTogetherAndAnswersItsResult(kind: DatabaseKind) throws {
        let database = try kind.make()
        let inbox = try database.notes([ada, grace])
        let archive = try database.source("archive")
        let moved = try database.database.write { transaction in
            try transaction.delete(IdQuery("ada"), in: inbox)
            try transaction.put(ada, in: archive)
            try transaction.putAll([alan], in: inbox)
            try transaction.deleteAll(IdsQuery(["grace"]), in: inbox)
            return "moved"
        }.get()
        #expect(moved == "moved")
        #expect(try inbox.getAll(AllObjectsQuery()).get() == [alan])
        #expect(try archive.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test(arguments: DatabaseKind.allCases)
    func aBodyThatThrowsAppliesNothingAndFailsWithItsOwnError(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let response = database.database.write { transaction in
            try transaction.put(grace, in: notes)
            try transaction.delete(IdQuery("ada"), in: notes)
            throw BodyError(reason: "changed my mind")
        }
        #expect(response.error as? BodyError == BodyError(reason: "changed my mind"))
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
        // Still writable.
        _ = try notes.put(alan).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, alan])
    }

    @Test(arguments: DatabaseKind.allCases)
    func aFailedWriteUndoesTheBodyEvenIfTheBodyCaughtIt(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let fragile = try database.source("fragile", of: Fragile.self)
        let response = database.database.write { transaction in
            try transaction.put(grace, in: notes)
            do {
                try transaction.put(Fragile(id: "bad", refusesToEncode: true), in: fragile)
            } catch {
                // Swallowed: the transaction still fails.
            }
            return 1
        }
        let error = try #require(response.dataError)
        #expect(error.code == .mappingFailed)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
        #expect(try fragile.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test(arguments: DatabaseKind.allCases)
    func writesInsideABodyThroughTheSourcesOrTheDatabaseFailAtOnce(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let refusals = try database.database.write { transaction in
            try transaction.put(grace, in: notes)
            // Each of these is already settled: waiting on them cannot deadlock.
            let answers: [(any Error)?] = [
                notes.put(alan).error,
                notes.putAll([alan]).error,
                notes.delete(IdQuery("ada")).error,
                notes.deleteAll(AllObjectsQuery()).error,
                database.database.write { _ in 1 }.error,
            ]
            return answers.map { ($0 as? DataError)?.code == .storageFailed && "\($0!)".contains("transaction") }
        }.get()
        #expect(refusals == [true, true, true, true, true])
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test(arguments: DatabaseKind.allCases)
    func aHandlerRunWhereAWriteSettlesMayWriteAndWaitAgain(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let done = DispatchSemaphore(value: 0)
        let written = LockedBox<Note?>(nil)
        notes.put(ada).onCompletion(on: .immediate) { _ in
            // Not inside a body: this write is queued like any other, and waiting for it ends.
            written.withLock { $0 = try? notes.put(grace).get() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(written.withLock { $0 } == grace)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test func aSourceCreatedInsideABodyIsRefusedWithStorageFailed() throws {
        let database = try SQLiteDatabase.inMemory()
        let error = try database.write { _ in
            throwsDataError { _ = try SQLiteDataSource<Note>(database: database, table: "later") }
        }.get()
        #expect(error?.code == .storageFailed)
        #expect(error?.message.contains("outside") == true)
    }

    @Test func aTransactionUsedAfterItsBodyReturnedFails() throws {
        let database = try DatabaseKind.inMemory.make()
        let notes = try database.notes([])
        let kept = LockedBox<SQLiteTransaction?>(nil)
        try database.database.write { transaction in kept.withLock { $0 = transaction } }.get()
        let error = try database.database.write { _ in
            throwsDataError { try kept.withLock { $0 }!.put(ada, in: notes) }
        }.get()
        #expect(error?.code == .storageFailed)
        #expect(error?.message.contains("ended") == true)
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aBodyThatReadsAndWritesBackNeverUndoesAWriteIssuedJustBeforeIt(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let writer = HeldWriter(database.database)
        // Issued while the writer is busy: the put and the body share the next transaction, the put first.
        let edited = notes.put(Note(id: "ada", text: "edited"))
        let appended = database.database.write { transaction in
            let current = try notes.get(IdQuery("ada")).get()
            try transaction.put(Note(id: "ada", text: current.text + ", appended"), in: notes)
            return try notes.get(IdQuery("ada")).get().text  // the body's own write
        }
        try writer.letGo()
        _ = try edited.get()
        #expect(try appended.get() == "edited, appended")
        #expect(try notes.get(IdQuery("ada")).get().text == "edited, appended")
    }

    @Test func aBlockingBodyHoldsTheWriterButNeverTheReaders() throws {
        let database = try DatabaseKind.file.make()
        let notes = try database.notes([ada])
        let writer = HeldWriter(database.database) { transaction in try transaction.put(grace, in: notes) }
        // The body holds the writer: a put waits behind it, but reads answer at once with the last commit.
        let queued = notes.put(alan)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
        #expect(try notes.get(IdQuery("ada")).get() == ada)
        #expect(!queued.isDone)
        try writer.letGo()
        _ = try queued.get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace, alan])
    }

    @Test func inMemoryReadsWaitForABlockingBodyButDoNotFail() throws {
        let database = try DatabaseKind.inMemory.make()
        let notes = try database.notes([ada])
        let writer = HeldWriter(database.database) { transaction in try transaction.put(grace, in: notes) }
        // One connection: the read is ordered after the body, and sees what it committed.
        let read = notes.getAll(AllObjectsQuery())
        #expect(!read.isDone)
        try writer.letGo()
        #expect(try read.get() == [ada, grace])
    }

    @Test func aWriteCancelledBeforeTheWriterReachedItIsNotApplied() throws {
        let database = try DatabaseKind.file.make()
        let notes = try database.notes([])
        let writer = HeldWriter(database.database)
        let cancelled = notes.put(ada)
        let kept = notes.put(grace)
        cancelled.cancel()
        try writer.letGo()
        _ = try kept.get()
        #expect(cancelled.isCancelled)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test func writesQueuedWhileTheWriterIsBusyCommitTogetherAndAFailureStaysItsOwn() throws {
        let database = try DatabaseKind.file.make()
        let fragile = try database.source("fragile", of: Fragile.self)
        let writer = HeldWriter(database.database)
        let first = fragile.put(Fragile(id: "a"))
        let bad = fragile.putAll([Fragile(id: "b"), Fragile(id: "bad", refusesToEncode: true)])
        let last = fragile.put(Fragile(id: "c"))
        try writer.letGo()
        #expect(try first.get() == Fragile(id: "a"))
        #expect(bad.dataError?.code == .mappingFailed)
        #expect(try last.get() == Fragile(id: "c"))
        #expect(try fragile.getAll(AllObjectsQuery()).get().map(\.id) == ["a", "c"])
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func writingASourceOfAnotherDatabaseIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            try Self.writeASourceOfAnotherDatabase()
        }
    }

    static func writeASourceOfAnotherDatabase() throws {
        let first = try SQLiteDatabase.inMemory()
        let other = try SQLiteDataSource<Note>(database: SQLiteDatabase.inMemory(), table: "notes")
        try first.write { transaction in try transaction.put(ada, in: other) }.get()
    }
    #endif
}
