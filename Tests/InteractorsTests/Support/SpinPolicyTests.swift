import Dispatch
import TestThreads
import Testing

@testable import Interactors

@Suite(.onThreadsOfTheirOwn) struct SpinPolicyTests {
    @Test func aWaiterSpinsWhileSpinsHavePaid() {
        let credit = SpinCredit()
        #expect(credit.shouldSpin())
        credit.record(paid: true)
        #expect(credit.shouldSpin())
        #expect(credit.current == 1)
    }

    @Test func aSpinThatDidNotPayMakesTheNextWaitersParkAtOnceThenSpinningIsTriedAgain() {
        let credit = SpinCredit()
        credit.record(paid: false)
        let answers = (0..<(SpinCredit.failurePenalty + 1)).map { _ in credit.shouldSpin() }
        #expect(answers == Array(repeating: false, count: SpinCredit.failurePenalty) + [true])
    }

    @Test func waitersThatParkAtOnceTogetherPayBackNoMoreThanWasOwed() {
        for _ in 0..<200 {
            let credit = SpinCredit()
            credit.record(paid: false)
            TestThread.runConcurrently(8) { _ in _ = credit.shouldSpin() }
            #expect(credit.current <= 0)
        }
    }

    @Test func aLongRunOfEitherKindIsForgottenWithinAFewDozenWaits() {
        let credit = SpinCredit()
        for _ in 0..<1_000 { credit.record(paid: false) }
        #expect(credit.current == SpinCredit.bounds.lowerBound)
        var parked = 0
        while !credit.shouldSpin() { parked += 1 }
        #expect(parked == -SpinCredit.bounds.lowerBound)
        for _ in 0..<1_000 { credit.record(paid: true) }
        #expect(credit.current == SpinCredit.bounds.upperBound)
    }

    @Test func aSpinThatSeesTheSettlementReturnsTrueAndEarnsCredit() {
        let credit = SpinCredit()
        var polls = 0
        let settled = SpinPolicy.spin(until: nil, credit: credit) {
            polls += 1
            return polls > 10
        }
        #expect(settled == SpinPolicy.hasSecondCore)
        #expect(credit.current == (SpinPolicy.hasSecondCore ? 1 : 0))
    }

    @Test func aSpinThatRunsOutOfBudgetReturnsFalseAndCostsCredit() {
        let credit = SpinCredit()
        #expect(!SpinPolicy.spin(until: nil, credit: credit) { false })
        #expect(credit.current == (SpinPolicy.hasSecondCore ? -SpinCredit.failurePenalty : 0))
    }

    @Test func aSpinCutShortByTheCallersDeadlineCostsNoCredit() {
        let credit = SpinCredit()
        #expect(!SpinPolicy.spin(until: .now(), credit: credit) { false })
        #expect(credit.current == 0)
    }

    @Test func whileCreditIsNegativeTheWaiterChecksOnceWithoutSpinning() {
        let credit = SpinCredit()
        credit.record(paid: false)
        var polls = 0
        #expect(
            !SpinPolicy.spin(until: nil, credit: credit) {
                polls += 1
                return false
            }
        )
        #expect(polls == 1)
    }
}
