import Dispatch
import TestThreads
import Testing

@testable import Interactors

/// Stages that block on the library hold the library's delivery threads: the library replaces them meanwhile, so a
/// stage nobody waits for, a delay, a retry and a timeout still answer on time (issue 32, defect 2 and the rule).
@Suite(.serialized, .onThreadsOfTheirOwn) struct ResponseBlockedStagesTests {
    /// A stage that runs on a delivery thread (after a delay, so off the caller's thread), blocking as `body` does.
    static func blockOnADeliveryThread(_ body: @escaping @Sendable () -> Void) {
        _ = Response(value: 0).delay(by: .milliseconds(1)).map { _ in body() }
    }

    /// Defect 2's generic case: with two stages blocked on `ix.deliver`, a stage due at 100 ms ran at 5,058 ms.
    @Test func aStageDueAt100MillisecondsRunsOnTimeWhileTwoStagesBlockTheDeliveryThreads() {
        let blocked = BlockedStages(DeliveryThreads.threadCount, start: Self.blockOnADeliveryThread)
        defer { blocked.release() }
        #expect(blocked.allEntered)
        let ran = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        // Nobody waits for it downstream: only the library's threads can run it.
        _ = Response(value: 0).delay(by: .milliseconds(100)).map { _ in ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test func delaysRetriesAndTimeoutsAnswerOnTimeWhile64StagesBlock() {
        let calls: [(name: String, call: () -> Void)] = [
            ("delay", { Self.waitForStage { Response(value: 0).delay(by: .milliseconds(10)) } }),
            (
                "retry",
                {
                    let attempts = Counter()
                    Self.waitForStage {
                        Response<Int>.retry(times: 1, delay: .milliseconds(10)) {
                            attempts.increment()
                            return attempts.value == 1 ? Response(error: TestError()) : Response(value: 1)
                        }
                    }
                }
            ),
            (
                "timeout",
                {
                    let (pending, resolver) = Response<Int>.makePending()
                    Self.waitForStage { pending.timeout(after: .milliseconds(10)).recover { _ in 0 } }
                    withExtendedLifetime(resolver) {}
                }
            ),
        ]
        let unblocked = calls.map { Latencies(of: 15, $0.call) }
        let blocked = BlockedStages(64, start: Self.blockOnADeliveryThread)
        defer { blocked.release() }
        #expect(blocked.allEntered)
        for (index, call) in calls.enumerated() {
            let latencies = Latencies(of: 15, call.call)
            #expect(
                latencies.areWithinTheBound(of: unblocked[index]),
                "\(call.name): \(latencies) blocked, \(unblocked[index]) unblocked"
            )
        }
    }

    @Test func theDeliveryThreadsReplacedWhileBlockedLeaveOnceTheyReturn() {
        let blocked = BlockedStages(16, start: Self.blockOnADeliveryThread)
        #expect(blocked.allEntered)
        blocked.release()
        // Nothing blocks now: a burst of stages leaves no more delivery threads than the pool's size.
        let ran = DispatchSemaphore(value: 0)
        for _ in 0..<200 { _ = Response(value: 0).delay(by: .milliseconds(1)).map { _ in ran.signal() } }
        for _ in 0..<200 { #expect(ran.wait(timeout: .now() + 10) == .success) }
        #expect(eventually { DeliveryThreads.liveThreads <= DeliveryThreads.threadCount })
    }

    /// Waits (on a semaphore, not on the library) until a stage of `make()`'s response has run.
    static func waitForStage(_ make: () -> Response<Int>) {
        let ran = DispatchSemaphore(value: 0)
        _ = make().map { _ in ran.signal() }
        _ = ran.wait(timeout: .now() + 10)
    }
}
