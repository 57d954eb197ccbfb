import DataTestSupport
import Dispatch
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

/// Reads, writes and observers' reads run on threads the database owns, never on Dispatch's global pool: with the
/// pool saturated by the app's own blocking work they take as long as with it idle; and they are few, not one per
/// call.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseThreadsTests {
    /// The longest a call may take with the pool saturated beyond what it takes with the pool idle.
    static let allowance: Duration = .milliseconds(500)

    /// How long `body` takes, the least of three runs (the one least disturbed by the machine's other work).
    static func time(_ body: () throws -> Void) rethrows -> Duration {
        let clock = ContinuousClock()
        var best = Duration.seconds(3_600)
        for _ in 0..<3 { best = min(best, try clock.measure(body)) }
        return best
    }

    /// The calling thread's name.
    static var currentThreadName: String {
        #if os(Linux)
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .newlines) ?? ""
        #else
        var name = [CChar](repeating: 0, count: 64)
        _ = pthread_getname_np(pthread_self(), &name, name.count)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    @Test(arguments: DatabaseKind.allCases)
    func getGetAllAndPutDoNotWaitForASaturatedPool(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes((0..<100).map { Note(id: "\($0)", text: "note \($0)") })
        var counter = 0
        // Timed waits, as an app's are: a wait with no deadline may run unstarted pool work itself, a timed one never.
        let calls: [(String, () throws -> Void)] = [
            ("get", { _ = try notes.get(IdQuery("42")).get(timeout: .seconds(20)) }),
            ("getAll", { _ = try notes.getAll(AllObjectsQuery()).get(timeout: .seconds(20)) }),
            (
                "put",
                {
                    counter += 1
                    _ = try notes.put(Note(id: "put-\(counter)", text: "put")).get(timeout: .seconds(20))
                }
            ),
        ]
        let idle = try calls.map { try Self.time($0.1) }
        let saturated = try SaturatedPool.whileSaturated { pool in
            let times = try calls.map { try Self.time($0.1) }
            #expect(pool.isStillSaturated)
            return times
        }
        for (index, call) in calls.enumerated() {
            #expect(
                saturated[index] < idle[index] + Self.allowance,
                "\(call.0): \(saturated[index]) against \(idle[index])"
            )
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func responsesSettleOnTheDatabasesThreadsAndDeliverWhereAsked(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        try SaturatedPool.whileSaturated { pool in
            // The four reader threads held by four observers' handlers, so that the get and the put below cannot
            // settle before their handlers are added (a handler added after runs on the thread adding it).
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holding = (0..<4).map { _ in
                let first = LockedBox(true)
                return notes.observe(AllObjectsQuery(), on: .immediate) { _ in
                    guard first.withLock({ $0 }) else { return }
                    first.withLock { $0 = false }
                    entered.signal()
                    _ = release.wait(timeout: .now() + 30)
                }
            }
            for _ in 0..<4 { #expect(entered.wait(timeout: .now() + 30) == .success) }

            let settled = LockedBox<[String]>([])
            let delivered = DispatchSemaphore(value: 0)
            let queue = HeldQueue()
            // Kept until they settle: a response every consumer let go of is cancelled.
            let responses = [
                ("get", notes.get(IdQuery("ada")).map { _ in () }), ("put", notes.put(grace).map { _ in () }),
            ]
            defer { withExtendedLifetime(responses) {} }
            for (name, response) in responses {
                response.onResult(on: .immediate) { result in
                    let outcome = (try? result.get()) == nil ? "failed" : "succeeded"
                    settled.withLock { $0.append("\(name) \(outcome) on \(Self.currentThreadName)") }
                    delivered.signal()
                }
                response.onCompletion(on: queue) { _ in }
            }
            #expect(settled.withLock { $0 }.isEmpty)
            for _ in 0..<4 { release.signal() }
            for _ in 0..<2 { #expect(delivered.wait(timeout: .now() + 10) == .success) }
            let threads = settled.withLock { $0 }
            #expect(
                threads.count == 2 && threads.allSatisfy { $0.hasSuffix(" succeeded on ix.sqlite.read") },
                "\(threads)"
            )
            // The handlers bound for the test's own queue were handed to it.
            #expect(queue.waitForJob())
            #expect(queue.waitForJob())
            queue.runAll()
            for observation in holding { observation.cancel() }
            // An observer's reads too.
            let heard = Heard<Note>()
            let observation = notes.observe(AllObjectsQuery(), on: .immediate) { heard.append($0) }
            #expect(heard.waitUntil { $0.last == [ada, grace] }.last == [ada, grace])
            _ = try notes.put(alan).get()
            #expect(heard.waitUntil { $0.last == [ada, grace, alan] }.last == [ada, grace, alan])
            #expect(pool.isStillSaturated)
            withExtendedLifetime(observation) {}
        }
    }

    /// A handler run where a write settles never runs on the writer (where waiting for another write would wait
    /// for itself), however the reader thread that answers races with the writer that hands it the answer.
    @Test(arguments: DatabaseKind.allCases)
    func handlersRunWhereAnswersSettleNeverRunOnTheWriter(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let threads = LockedBox<[String]>([])
        var responses: [Response<Void>] = []
        for index in 0..<300 {
            let put = notes.put(Note(id: "\(index)", text: "x"))
            put.onResult(on: .immediate) { _ in threads.withLock { $0.append(Self.currentThreadName) } }
            let read = notes.get(IdQuery("\(index)"))
            // Maybe before the put commits (then notFound): either way its handler runs.
            read.onResult(on: .immediate) { _ in threads.withLock { $0.append(Self.currentThreadName) } }
            responses += [put.map { _ in () }, read.map { _ in () }.recover { _ in () }]
        }
        for response in responses { _ = try? response.get(timeout: .seconds(30)) }
        let names = threads.withLock { $0 }
        #expect(names.count == 600, "\(Dictionary(grouping: names) { $0 }.mapValues(\.count))")
        #expect(!names.contains("ix.sqlite.write"), "\(Dictionary(grouping: names) { $0 }.mapValues(\.count))")
    }

    /// Every reader thread held by a handler run where an answer settles (`.immediate`), each blocked on another
    /// call of the same database: the answers they wait for are work they run in their place, not jobs queued
    /// behind them (the library's promise: a blocking wait never deadlocks on work it is owed).
    @Test(arguments: DatabaseKind.allCases)
    func handlersBlockedOnEveryReaderThreadStillGetTheirAnswers(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let readers = 4  // SQLiteDatabase's reader threads, as its documentation says
        let entered = DispatchSemaphore(value: 0)
        let allIn = DispatchSemaphore(value: 0)
        let outcomes = LockedBox<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let observations = holdingEveryReaderThread(of: notes, readers) { index in
            entered.signal()
            _ = allIn.wait(timeout: .now() + 30)
            // Guarded waits: a deadlock shows as timedOut, and the threads are let go.
            let put = notes.put(Note(id: "from-\(index)", text: "x")).result(timeout: .seconds(10))
            let written = database.database.write { _ in index }.result(timeout: .seconds(10))
            let read = notes.get(IdQuery("ada")).result(timeout: .seconds(10))
            outcomes.withLock {
                $0.append("\(index): put \(put.outcome), write \(written.outcome), get \(read.outcome)")
            }
            finished.signal()
        }
        for _ in 0..<readers { #expect(entered.wait(timeout: .now() + 30) == .success) }
        for _ in 0..<readers { allIn.signal() }
        for _ in 0..<readers { #expect(finished.wait(timeout: .now() + 60) == .success) }
        let lines = outcomes.withLock { $0 }
        #expect(lines.count == readers)
        #expect(lines.allSatisfy { $0.hasSuffix("put ok, write ok, get ok") }, "\(lines)")
        withExtendedLifetime(observations) {}
    }

    /// A write body (on the writer) waiting for a read, while every reader thread is held by a handler waiting for a
    /// write queued behind that body: the body's read runs on the writer's thread, so everything answers. In memory
    /// too (issue 32): there the read was decoded on a reader thread, and answered only when the handlers' waits
    /// ran out. The handlers' answers never settle on the writer.
    @Test(arguments: DatabaseKind.allCases)
    func aBodyWaitingForAReadWhileEveryReaderThreadWaitsForAWriteBehindIt(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let readers = 4  // SQLiteDatabase's reader threads
        let entered = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcomes = LockedBox<[String]>([])
        let answeredOn = LockedBox<[String]>([])
        let observations = holdingEveryReaderThread(of: notes, readers) { index in
            entered.signal()
            _ = go.wait(timeout: .now() + 30)
            let put = notes.put(Note(id: "from-\(index)", text: "x")).map { _ in Self.currentThreadName }
                .result(timeout: .seconds(2))
            outcomes.withLock { $0.append("put \(put.outcome)") }
            if case .success(let thread) = put { answeredOn.withLock { $0.append(thread) } }
            finished.signal()
        }
        for _ in 0..<readers { #expect(entered.wait(timeout: .now() + 30) == .success) }
        let bodyEntered = DispatchSemaphore(value: 0)
        let body = database.database.write { _ in
            bodyEntered.signal()
            _ = go.wait(timeout: .now() + 30)
            let read = notes.get(IdQuery("ada")).result(timeout: .seconds(2))
            outcomes.withLock { $0.append("read \(read.outcome)") }
        }
        #expect(bodyEntered.wait(timeout: .now() + 30) == .success)
        for _ in 0...readers { go.signal() }
        for _ in 0..<readers { #expect(finished.wait(timeout: .now() + 30) == .success) }
        _ = body.result(timeout: .seconds(30))
        let lines = outcomes.withLock { $0 }
        #expect(lines.filter { $0.hasSuffix(" ok") }.count == readers + 1, "\(lines)")
        // A put's answer settles on a reader thread, never on the writer.
        #expect(!answeredOn.withLock { $0 }.contains("ix.sqlite.write"), "\(answeredOn.withLock { $0 })")
        withExtendedLifetime(observations) {}
    }

    #if os(macOS) || os(Linux)
    @Test func aThousandReadsStartAFewThreadsThatEndWithTheDatabase() throws {
        guard threadsInThisProcess() != nil else { return }  // no /proc to count them
        let directory = try TemporaryDirectory()
        let child = try SQLiteFixture.start(["threads", directory.file("app.sqlite").path])
        defer { child.stop() }
        let line = try #require(
            child.waitForLine(guardSeconds: 120) { $0.hasPrefix("threads") || $0.hasPrefix("error") }
        )
        // "threads before <n> after <n> sqlite <n> released <n>"
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count == 4, "\(line)")
        let (before, after, sqlite, released) = (numbers[0], numbers[1], numbers[2], numbers[3])
        // A database has one writer thread and at most four reader threads, as its documentation says.
        #expect(after - before <= 5, "\(line)")
        #expect(sqlite <= 5, "\(line)")
        #expect(released == 0, "\(line)")
    }
    #endif
}

/// One observer of `notes` per reader thread, each running `hold` with its index on its first answer only: a first
/// answer is told on a reader thread (`.immediate`), which `hold` keeps for as long as it runs.
private func holdingEveryReaderThread(
    of notes: SQLiteDataSource<Note>,
    _ readers: Int,
    _ hold: @escaping @Sendable (Int) -> Void
) -> [DataObservation] {
    (0..<readers).map { index in
        let isFirst = LockedBox(true)
        return notes.observe(AllObjectsQuery(), on: .immediate) { _ in
            let first = isFirst.withLock { first in
                defer { first = false }
                return first
            }
            if first { hold(index) }
        }
    }
}

extension Response {
    /// The outcome of a wait of at most `timeout`: a `timedOut` failure if it ran out.
    fileprivate func result(timeout: Duration) -> Result<Value, any Error> {
        Result { try get(timeout: timeout) }
    }
}

extension Result {
    /// "ok", or the failure, for a test's message.
    fileprivate var outcome: String {
        switch self {
        case .success: "ok"
        case .failure(let error): "\(error)"
        }
    }
}
