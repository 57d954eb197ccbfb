import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// However many handlers and stages of a database's answers block at once (issue 32), each on a response the app
/// settles later, every other call of that database, and of another one, answers as it does with none blocked.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDatabaseBlockingTests {
    @Test(arguments: DatabaseKind.allCases)
    func sixtyFourBlockedHandlersAndStagesHoldUpNoOtherCall(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let others = try database.source("others", of: Note.self)
        _ = try others.put(grace).get()
        let elsewhere = try kind.make()
        let distant = try elsewhere.notes([ada])
        let counter = LockedBox(0)
        // Each call bounded: a stuck one counts as over the bound, and the test goes on.
        let calls: [(name: String, call: () -> Void)] = [
            ("get", { _ = try? notes.get(IdQuery("ada")).get(timeout: .seconds(2)) }),
            ("getAll of another table", { _ = try? others.getAll(AllObjectsQuery()).get(timeout: .seconds(2)) }),
            (
                "put",
                {
                    let id = counter.withLock {
                        $0 += 1
                        return $0
                    }
                    _ = try? notes.put(Note(id: "n\(id)", text: "x")).get(timeout: .seconds(2))
                }
            ),
            ("write(_:)", { _ = try? database.database.write { _ in 1 }.get(timeout: .seconds(2)) }),
            ("another database's get", { _ = try? distant.get(IdQuery("ada")).get(timeout: .seconds(2)) }),
        ]
        let unblocked = calls.map { Latencies(of: 15, $0.call) }

        // The writer held until the last put is issued: every handler and stage is added before its answer, so each
        // runs where the database answers, never on the test's thread.
        let writer = HeldWriter(database.database)
        let blocked = BlockedStages(answersOf: 64) { index in
            notes.put(Note(id: "held-\(index)", text: "x"))
        } issued: {
            #expect(throws: Never.self) { try writer.letGo() }
        }
        defer { blocked.release() }
        #expect(blocked.allEntered)
        expectWithinTheBound(calls, of: unblocked)
    }
}
