import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// A write reports what happened (issue 34): once its transaction has begun, cancelling its response is ignored and
/// it answers its outcome; one still queued behind other writes is withdrawn, and nothing of it is written. Through
/// the source itself, and through a repository and a CRUD interactor on an executor.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDataSourceCommittedWritesTests {
    static let rows = volume(30_000, underASanitizer: 5_000)
    static let notes = (0..<rows).map { Note(id: "n\($0)", text: "note \($0)") }

    /// A `deleteAll` over 30,000 rows (5,000 under a sanitizer, see `volume`), queued behind a write that takes about
    /// as long, cancelled at 20 points spread over the time both take: whenever the rows are gone the answer is
    /// success, whenever they are all there it is a cancellation, never anything else. Every other round goes through a
    /// `CacheRepository` and a `DeleteAllInteractor` on an executor.
    @Test func cancellingADeleteAllAtTwentyPointsNeverMixesItsAnswerAndWhatItDid() throws {
        let database = try DatabaseKind.file.make()
        let notes = try database.source()
        let executor = InteractorExecutor()
        executor.register(
            DeleteAllInteractor(
                repository: CacheRepository(main: notes, cache: InMemoryDataSource<Note>()),
                queue: DispatchQueue(label: "deletes")
            )
        )
        let calls: [() -> Response<Void>] = [
            { notes.deleteAll(AllObjectsQuery()) },
            { executor.execute(DeleteAllRequest<Note>(AllObjectsQuery())) },
        ]
        // How long a delete takes, and so how long the write queued before it is made to take.
        _ = try notes.putAll(Self.notes).get()
        let delete = try ContinuousClock().measure { try notes.deleteAll(AllObjectsQuery()).get() }
        let span = delete * 2
        var outcomes: [String] = []
        for round in 0..<20 {
            _ = try notes.putAll(Self.notes).get()
            let ahead = database.database.write { _ in Thread.sleep(forTimeInterval: Self.seconds(delete)) }
            let deletion = calls[round % 2]()
            Thread.sleep(forTimeInterval: Self.seconds(span) * Double(round) / 20)
            deletion.cancel()
            let answer = Result { try deletion.get(timeout: .seconds(60)) }
            _ = try ahead.get()
            let left = try notes.getAll(AllObjectsQuery()).get().count
            switch (answer, left) {
            case (.success, 0):
                outcomes.append("deleted")
                #expect(!deletion.isCancelled)
            case (.failure(let error), Self.rows) where error is CancellationError:
                outcomes.append("withdrawn")
            default:
                Issue.record("round \(round): answered \(answer), \(left) rows left")
            }
        }
        // Both ends were reached (what the spread is for); printed for the record.
        print("cancelled deleteAll, 20 rounds over \(span): \(outcomes)")
    }

    @Test(arguments: DatabaseKind.allCases)
    func aPutCancelledWhileItsTransactionRunsAnswersItsOutcome(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let written = database.database.write { transaction in
            try transaction.put(ada, in: notes)
            entered.signal()
            _ = release.wait(timeout: .now() + 30)
            return "written"
        }
        #expect(entered.wait(timeout: .now() + 30) == .success)
        let answer = written.map { $0 + " and answered" }
        answer.cancel()
        #expect(!answer.isCancelled)
        release.signal()
        #expect(try answer.get(timeout: .seconds(30)) == "written and answered")
        #expect(try notes.get(IdQuery("ada")).get() == ada)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aPutCancelledWhileQueuedIsWithdrawnAndWritesNothing(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        let writer = HeldWriter(database.database)
        let put = notes.put(ada)
        put.cancel()
        #expect(put.isCancelled)
        try writer.letGo()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [])
    }

    /// A cancellation that lands while a CRUD interactor is inside the repository call: the write it queued has not
    /// begun (the writer is held), so it is withdrawn; it is never left to go ahead behind a "cancelled".
    @Test func aPutCancelledWhileTheInteractorCallsTheRepositoryIsWithdrawn() throws {
        let database = try DatabaseKind.file.make()
        let notes = try database.source()
        let slow = SlowCalls(SingleSourceRepository(notes))
        let executor = InteractorExecutor()
        executor.register(PutInteractor(repository: slow, queue: DispatchQueue(label: "puts")))
        let writer = HeldWriter(database.database)
        slow.caller.withLock { $0 = Thread.current }
        let put = executor.execute(PutRequest(ada))
        #expect(slow.calling.wait(timeout: .now() + 30) == .success)  // inside the call; the write is queued
        put.cancel()
        slow.proceed.signal()
        // The writer goes on only once the interactor has handed the cancellation to the repository's response:
        // letting it go earlier would race the withdrawal (the write, begun, would rightly be kept).
        #expect(slow.waitUntilTheCallsResponseIsCancelled())
        try writer.letGo()
        #expect(put.isCancelled)
        _ = try notes.put(grace).get()  // after the withdrawn put, had it gone ahead
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

/// A repository whose `put` makes its call, then waits for the test before handing the response back: an
/// interactor's repository call in progress.
private struct SlowCalls: GetRepository, PutRepository, DeleteRepository {
    typealias Value = Note

    let base: SingleSourceRepository<Note>
    let calling = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    /// The test's thread, which `execute` may make the call on (a queue's turn that settled before the
    /// interactor added its stage runs the stage at once): the call must not wait there for the test.
    let caller = LockedBox<Thread?>(nil)
    private let returned = LockedBox<Response<Note>?>(nil)

    init(_ base: SingleSourceRepository<Note>) {
        self.base = base
    }

    func put(_ value: Note, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Note> {
        let response = base.put(value, ifAbsent: ifAbsent, operation: operation)
        calling.signal()
        if caller.withLock({ $0 }) !== Thread.current { _ = proceed.wait(timeout: .now() + 30) }
        returned.withLock { $0 = response }
        return response
    }

    /// Waits until the response the put call returned is cancelled (no handler added: that would be a consumer
    /// of its own, keeping it from being cancelled); false if the 30-second guard ran out.
    func waitUntilTheCallsResponseIsCancelled() -> Bool {
        waitUntil(guardSeconds: 30) { returned.withLock({ $0 })?.isCancelled == true }
    }

    func put(_ value: Note, operation: RepositoryOperation) -> Response<Note> {
        put(value, ifAbsent: false, operation: operation)
    }

    func putAll(_ values: [Note], operation: RepositoryOperation) -> Response<[Note]> { base.putAll(values) }
    func get(_ query: any Query, operation: RepositoryOperation) -> Response<Note> { base.get(query) }
    func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Note]> { base.getAll(query) }
    func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> { base.delete(query) }
    func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> { base.deleteAll(query) }
}
