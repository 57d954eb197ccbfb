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
