import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// `observe(_:on:_:)`: the query's answer at once, then committed states in commit order, never half a
/// transaction, never going back, the last always told; an observer busy meanwhile is told at most two states
/// once free; nothing once cancelled.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDataSourceObservingTests {
    @Test(arguments: DatabaseKind.allCases)
    func theObserverHearsTheValuesFirstThenEachCommitItWaitsFor(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let heard = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue(label: "observer")) { heard.append($0) }
        #expect(heard.wait(for: 1) == [[ada]])
        _ = try notes.put(grace).get()
        #expect(heard.waitUntil { $0.last == [ada, grace] }.last == [ada, grace])
        try notes.delete(IdQuery("ada")).get()
        #expect(heard.waitUntil { $0.last == [grace] }.last == [grace])
        _ = try notes.putAll([alan, ada]).get()
        #expect(heard.waitUntil { $0.last == [grace, alan, ada] }.last == [grace, alan, ada])
        // Each commit waited for was told once (none was skipped: none came while the observer was busy).
        #expect(heard.values == [[ada], [ada, grace], [grace], [grace, alan, ada]])
        withExtendedLifetime(observation) {}
    }

    @Test(arguments: DatabaseKind.allCases)
    func writesCommittedTogetherAreToldTogether(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let heard = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue.global()) { heard.append($0) }
        #expect(heard.wait(for: 1) == [[]])
        let writer = HeldWriter(database.database)
        // Queued while the writer is busy: they commit together, and are told together.
        let writes = [notes.put(ada), notes.put(grace), notes.put(alan)]
        try writer.letGo()
        for write in writes { _ = try write.get() }
        _ = try notes.put(ada).get()
        #expect(heard.waitUntil { $0.last == [ada, grace, alan] }.last == [ada, grace, alan])
        #expect(heard.values.allSatisfy { $0 == [] || $0 == [ada, grace, alan] })
        withExtendedLifetime(observation) {}
    }

    @Test(arguments: DatabaseKind.allCases)
    func everyAnswerIsACommittedStateInOrder(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let heard = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue.global()) { heard.append($0) }
        #expect(heard.wait(for: 1) == [[]])
        let all = (0..<100).map { Note(id: "\($0)", text: "n") }
        let writes = all.map { notes.put($0) }
        for write in writes { _ = try write.get() }
        // However the writes were grouped, each answer is a prefix of the puts, growing, ending with all of them.
        let answers = heard.waitUntil { $0.last?.count == 100 }
        let last = try #require(answers.last)
        #expect(last == all)
        let counts = heard.values.map(\.count)
        #expect(counts == counts.sorted())
        #expect(heard.values.allSatisfy { $0 == Array(all.prefix($0.count)) })
        withExtendedLifetime(observation) {}
    }

    @Test(arguments: DatabaseKind.allCases)
    func aWriteTransactionIsToldOnceAfterItsCommit(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let heard = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue(label: "observer")) { heard.append($0) }
        #expect(heard.wait(for: 1) == [[]])
        try database.database.write { transaction in
            try transaction.put(ada, in: notes)
            try transaction.put(grace, in: notes)
            try transaction.delete(IdQuery("ada"), in: notes)
            try transaction.put(alan, in: notes)
        }.get()
        #expect(heard.waitUntil { $0.last == [grace, alan] }.last == [grace, alan])
        // A failed transaction is not told.
        _ =
            database.database.write { transaction in
                try transaction.put(ada, in: notes)
                throw BodyError(reason: "no")
            }.error
        _ = try notes.put(ada).get()
        // Never a state inside the transaction, nor the failed one's.
        #expect(heard.waitUntil { $0.last == [grace, alan, ada] } == [[], [grace, alan], [grace, alan, ada]])
        withExtendedLifetime(observation) {}
    }

    @Test(arguments: DatabaseKind.allCases)
    func theQueryDecidesWhatIsToldAndOtherTablesAreNot(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada, grace])
        let archive = try database.source("archive")
        let sameTable = try database.source("Notes")  // SQLite's table names ignore ASCII case
        let one = Heard<Note>()
        let pinned = Heard<Note>()
        let observations = [
            notes.observe(IdQuery("ada"), on: DispatchQueue(label: "one")) { one.append($0) },
            notes.observe(FilterQuery<Note> { $0.revision > 0 }, on: DispatchQueue(label: "pinned")) {
                pinned.append($0)
            },
        ]
        #expect(one.wait(for: 1) == [[ada]])
        #expect(pinned.wait(for: 1) == [[]])
        _ = try archive.put(alan).get()
        let revised = Note(id: "ada", text: "Bernoulli", revision: 1)
        _ = try sameTable.put(revised).get()
        #expect(one.waitUntil { $0.last == [revised] }.last == [revised])
        #expect(pinned.waitUntil { $0.last == [revised] }.last == [revised])
        try notes.delete(IdQuery("ada")).get()
        #expect(one.waitUntil { $0.count == 3 } == [[ada], [revised], []])
        #expect(pinned.waitUntil { $0.count == 3 } == [[], [revised], []])
        withExtendedLifetime(observations) {}
    }

    @Test(arguments: DatabaseKind.allCases)
    func aBusyObserverIsToldAtMostTwoStatesOnceFreeTheNewestLast(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let heard = Heard<Note>()
        let busy = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let observation = notes.observe(AllObjectsQuery(), on: .immediate) { result in
            if heard.values.isEmpty {
                entered.signal()
                _ = busy.wait(timeout: .now() + 60)  // the first answer's handler is slow
            }
            heard.append(result)
        }
        #expect(entered.wait(timeout: .now() + 30) == .success)
        let all = (0..<50).map { Note(id: "\($0)", text: "n") }
        for note in all { _ = try notes.put(note).get() }
        busy.signal()
        let answers = heard.waitUntil { $0.last == all }
        #expect(answers.first == [])
        #expect(answers.last == all)
        #expect(answers.count <= 3, "\(answers.map(\.count))")
        withExtendedLifetime(observation) {}
    }

    @Test func anObserversReadsDoNotWaitForTheWriter() throws {
        let database = try DatabaseKind.file.make()
        let notes = try database.notes([ada])
        let writer = HeldWriter(database.database)
        let heard = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: .immediate) { heard.append($0) }
        #expect(heard.wait(for: 1) == [[ada]])
        try writer.letGo()
        withExtendedLifetime(observation) {}
    }

    @Test func afterCancelReturnsNoCallStarts() throws {
        let database = try DatabaseKind.file.make()
        let notes = try database.notes([ada])
        let queue = HeldQueue()
        let calls = LockedBox(0)
        let observation = notes.observe(AllObjectsQuery(), on: queue) { _ in calls.withLock { $0 += 1 } }
        // The first answer is on the queue, waiting to be told.
        #expect(queue.waitForJob())
        observation.cancel()
        #expect(observation.isCancelled)
        _ = try notes.put(grace).get()
        queue.runAll()
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func releasingTheObservationCancelsItAndReleasesTheHandler() throws {
        let database = try DatabaseKind.inMemory.make()
        let notes = try database.notes([ada])
        final class Screen: Sendable {}
        weak var released: Screen?
        let heard = Heard<Note>()
        let queue = HeldQueue()
        do {
            let screen = Screen()
            released = screen
            let observation = notes.observe(AllObjectsQuery(), on: queue) { result in
                withExtendedLifetime(screen) { heard.append(result) }
            }
            #expect(queue.waitForJob())
            queue.runAll()
            #expect(heard.values == [[ada]])
            withExtendedLifetime(observation) {}
        }
        #expect(released == nil)
        _ = try notes.put(grace).get()
        // A second observer hears the put; the first, released, does not.
        let second = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue.global()) { second.append($0) }
        #expect(second.wait(for: 1) == [[ada, grace]])
        queue.runAll()
        #expect(heard.values == [[ada]])
        withExtendedLifetime(observation) {}
    }

    @Test func aQueryTheSourceCannotAnswerIsToldOnceAsAFailure() throws {
        let database = try DatabaseKind.inMemory.make()
        let notes = try database.notes([ada])
        let heard = Heard<Note>()
        let observation = notes.observe(TextSearchQuery(term: "x"), on: DispatchQueue.global()) { heard.append($0) }
        let results = heard.waitForResults(1)
        #expect((results.first?.failure as? DataError)?.code == .queryNotSupported)
        withExtendedLifetime(observation) {}
    }

    @Test func observationsAreComparedByIdentityAndKeptInASet() throws {
        let database = try DatabaseKind.inMemory.make()
        let notes = try database.notes([])
        var observations = Set<DataObservation>()
        notes.observe(AllObjectsQuery(), on: DispatchQueue.global()) { _ in }.store(in: &observations)
        notes.observe(AllObjectsQuery(), on: DispatchQueue.global()) { _ in }.store(in: &observations)
        #expect(observations.count == 2)
        let first = try #require(observations.first)
        #expect(first == first)
        first.cancel()
        first.cancel()
        #expect(first.isCancelled)
    }
}

/// A callback queue that holds its jobs until the test runs them, and lets the test wait for one to arrive.
final class HeldQueue: CallbackQueue {
    private let jobs = LockedBox<[@Sendable () -> Void]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func schedule(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        arrived.signal()
    }

    /// Waits for a job to be scheduled (a generous guard); false if none came.
    func waitForJob() -> Bool {
        arrived.wait(timeout: .now() + 30) == .success
    }

    /// Runs the jobs held so far.
    func runAll() {
        for job in jobs.withLock({ jobs in
            defer { jobs = [] }
            return jobs
        }) {
            job()
        }
    }
}

/// What an observer heard, with a wait for the next answers.
final class Heard<Value: Sendable & Equatable>: Sendable {
    private let results = LockedBox<[Result<[Value], any Error>]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ result: Result<[Value], any Error>) {
        results.withLock { $0.append(result) }
        arrived.signal()
    }

    /// The successful answers so far (a failure reads as `[]`).
    var values: [[Value]] {
        results.withLock { $0.map { (try? $0.get()) ?? [] } }
    }

    /// Waits until `count` answers have arrived (a generous guard), then answers the successful ones.
    func wait(for count: Int) -> [[Value]] {
        _ = waitForResults(count)
        return values
    }

    /// Waits until the answers so far satisfy `condition` (a generous guard), then answers them.
    func waitUntil(_ condition: ([[Value]]) -> Bool) -> [[Value]] {
        let deadline = DispatchTime.now() + 30
        while !condition(values) {
            if arrived.wait(timeout: deadline) == .timedOut { break }
        }
        return values
    }

    /// Waits until `count` answers have arrived, then answers them all.
    func waitForResults(_ count: Int) -> [Result<[Value], any Error>] {
        let deadline = DispatchTime.now() + 30
        while results.withLock({ $0.count }) < count {
            if arrived.wait(timeout: deadline) == .timedOut { break }
        }
        return results.withLock { $0 }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
