import Dispatch
import TestThreads
import Testing

@testable import Interactors

/// A `timeout(after:)` without a clock puts one entry in the library's timer, which leaves it as soon as the
/// timed response settles, whichever way: nothing piles up until the deadline, and the timed response is not
/// held by the timer.
///
/// The timer is shared by the whole process and other tests run at the same time, adding a few entries of their
/// own (which may expire at any moment), so the counts are compared with the thousands each test makes, with a
/// margin; the tests of this suite run one at a time.
@Suite(.serialized) struct ResponseTimeoutTimerTests {
    private static let count = 2_000

    @Test func timeoutsWhoseResponsesSettleLeaveTheTimerAtOnce() throws {
        let pending = (0..<Self.count).map { _ in Response<Int>.makePending(callbackQueue: .immediate) }
        let timed = pending.map { $0.response.timeout(after: .seconds(600)) }
        #expect(DeadlineTimer.shared.pendingCount >= Self.count)

        for (index, (_, resolver)) in pending.enumerated() { resolver.succeed(index) }
        #expect(DeadlineTimer.shared.pendingCount < Self.count / 10)
        #expect(try timed.last!.get(timeout: .seconds(10)) == Self.count - 1)
    }

    @Test func cancelledTimedResponsesLeaveTheTimerAtOnce() {
        let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = shared.map { $0 }
        let timed = (0..<Self.count).map { _ in shared.timeout(after: .seconds(600)) }
        #expect(DeadlineTimer.shared.pendingCount >= Self.count)

        for response in timed { response.cancel() }
        #expect(DeadlineTimer.shared.pendingCount < Self.count / 10)
        #expect(!shared.isDone)
        resolver.succeed(1)
        withExtendedLifetime(keeper) {}
    }

    @Test func timingASettledResponseAddsNothingToTheTimer() throws {
        let timed = (0..<Self.count).map { Response(value: $0).timeout(after: .seconds(600)) }
        #expect(DeadlineTimer.shared.pendingCount < Self.count / 10)
        #expect(try timed[42].get(timeout: .seconds(10)) == 42)
    }

    @Test func aTimedResponseThatSettledInTimeIsFreedLongBeforeItsDeadline() {
        let (source, resolver) = Response<Tracked>.makePending(callbackQueue: .immediate)
        weak var timed: Response<Tracked>?
        do {
            let response = source.timeout(after: .seconds(600))
            timed = response
            resolver.succeed(Tracked())
        }
        #expect(timed == nil)
        withExtendedLifetime(source) {}
    }

    @Test func timeoutsMadeAndSettledOneAfterAnotherWakeTheTimerThreadRarely() {
        // The timer thread runs, parked until a deadline 600 s away.
        let (first, firstResolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let firstTimed = first.timeout(after: .seconds(600))
        firstResolver.succeed(0)
        let wakeUpsBefore = DeadlineTimer.shared.wakeUpCounts
        let switchesBefore = contextSwitches(ofThreadsNamed: "ix.timer")
        for index in 0..<20_000 {
            let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
            let timed = response.timeout(after: .seconds(600))
            resolver.succeed(index)
            withExtendedLifetime(timed) {}
        }
        let wakeUpsAfter = DeadlineTimer.shared.wakeUpCounts
        let switchesAfter = contextSwitches(ofThreadsNamed: "ix.timer")
        // Other tests' earlier deadlines wake it too, a few times.
        #expect(wakeUpsAfter.forDeadlines - wakeUpsBefore.forDeadlines < 2_000)
        // Its context switches too, when other tests left it idle meanwhile: while it runs their jobs (thousands,
        // when a slow run, under a sanitizer, overlaps stress tests that drop resolvers or time out) it also
        // waits for its lock, which this loop takes 40,000 times, and each such wait is a switch. The process as a
        // whole is measured alone in the benchmarks (`threads-timeouts-one-by-one-20000`).
        let others = (wakeUpsAfter.forJobs - wakeUpsBefore.forJobs) + (wakeUpsAfter.onTime - wakeUpsBefore.onTime)
        if let switchesBefore, let switchesAfter, others == 0 {
            #expect(switchesAfter - switchesBefore < 2_000)
        }
        withExtendedLifetime(firstTimed) {}
    }
}
