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
        var counter = 0
        var bound = Duration.seconds(5)
        let calls: [(String, () throws -> Void)] = [
            ("get", { _ = try notes.get(IdQuery("ada")).get(timeout: bound) }),
            ("getAll of another table", { _ = try others.getAll(AllObjectsQuery()).get(timeout: bound) }),
            (
                "put",
                {
                    counter += 1
                    _ = try notes.put(Note(id: "n\(counter)", text: "x")).get(timeout: bound)
                }
            ),
            ("write(_:)", { _ = try database.database.write { _ in 1 }.get(timeout: bound) }),
            ("another database's get", { _ = try distant.get(IdQuery("ada")).get(timeout: bound) }),
        ]
        let idle = try calls.map { try BlockedCallers.time($0.1) }
        bound = BlockedCallers.ceiling

        let held = HeldAnswer()
        defer { held.release() }
        // The writer held while the handlers and stages are added, so that none runs on the test's thread.
        let writer = HeldWriter(database.database)
        let blocked = (0..<BlockedCallers.count).map { index -> Response<Void> in
            let put = notes.put(Note(id: "held-\(index)", text: "x"))
            guard index.isMultiple(of: 2) else { return put.map { _ in held.wait() } }
            put.onResult(on: .immediate) { _ in held.wait() }
            return put.map { _ in }
        }
        try writer.letGo()
        #expect(
            held.waitUntilWaiting(BlockedCallers.count, guardSeconds: 10),
            "\(held.waiting) of \(BlockedCallers.count) blocked"
        )
        for (index, (name, call)) in calls.enumerated() {
            // Each call bounded by the ceiling: a stuck one fails at once, and the test goes on.
            switch Result(catching: { try BlockedCallers.time(call) }) {
            case .success(let busy):
                #expect(busy.keepTheRule(against: idle[index]), "\(kind) \(name): \(busy) against \(idle[index])")
            case .failure(let error):
                Issue.record(Comment(rawValue: "\(kind) \(name) with \(BlockedCallers.count) blocked: \(error)"))
            }
        }
        held.release()
        for response in blocked { #expect(throws: Never.self) { try response.get(timeout: .seconds(30)) } }
    }
}
