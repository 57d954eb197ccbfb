import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct InteractorSpyTests {
    struct Failure: Error, Equatable {}

    @Test func recordsRequestsInCallOrder() {
        let spy = InteractorSpy<Int, Int>()
        spy.alwaysAnswer(with: 0)
        #expect(spy.lastRequest == nil)
        for request in 1...3 { _ = spy.execute(request) }
        #expect(spy.requests == [1, 2, 3])
        #expect(spy.lastRequest == 3)
        #expect(spy.executeCount == 3)
    }

    @Test func recordsEveryRequestFromManyThreadsEachThreadsInItsOwnOrder() {
        let spy = InteractorSpy<[Int], Int>()
        spy.alwaysAnswer(with: 0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for call in 0..<100 { _ = spy.execute([thread, call]) }
        }
        let requests = spy.requests
        #expect(requests.count == 800)
        #expect(spy.executeCount == 800)
        for thread in 0..<8 {
            #expect(requests.filter { $0[0] == thread }.map { $0[1] } == Array(0..<100))
        }
    }

    @Test func queuedAnswersAreUsedOnePerCallInOrder() throws {
        let spy = InteractorSpy<Int, String>()
        spy.answer(with: "first")
        spy.answer(withError: Failure())
        spy.answer(with: .success("third"))
        #expect(try spy.execute(1).get() == "first")
        #expect(throws: Failure()) { try spy.execute(2).get() }
        #expect(try spy.execute(3).get() == "third")
    }

    @Test func queuedAnswersComeBeforeTheStandingAnswer() throws {
        let spy = InteractorSpy<Int, String>()
        spy.alwaysAnswer(with: "always")
        spy.answer(with: "once")
        #expect(try spy.execute(1).get() == "once")
        #expect(try spy.execute(2).get() == "always")
        #expect(try spy.execute(3).get() == "always")
        spy.alwaysAnswer(withError: Failure())
        #expect(throws: Failure()) { try spy.execute(4).get() }
    }

    @Test func withNoAnswerACallStaysPendingUntilSettleNextSettlesTheOldest() throws {
        let spy = InteractorSpy<Int, String>()
        let first = spy.execute(1), second = spy.execute(2)
        #expect(!first.isDone && !second.isDone)
        #expect(spy.pendingCount == 2)
        spy.settleNext(with: .success("one"))
        #expect(try first.get() == "one")
        #expect(!second.isDone)
        spy.settleNext(withError: Failure())
        #expect(throws: Failure()) { try second.get() }
        #expect(spy.pendingCount == 0)
    }

    @Test func anAnswerQueuedLaterDoesNotSettleAPendingCall() throws {
        let spy = InteractorSpy<Int, String>()
        let pending = spy.execute(1)
        spy.answer(with: "next")
        #expect(!pending.isDone)
        #expect(try spy.execute(2).get() == "next")
        spy.settleNext(with: "pending")
        #expect(try pending.get() == "pending")
    }

    @Test func aCancelledPendingCallIsNoLongerPending() throws {
        let spy = InteractorSpy<Int, String>()
        let cancelled = spy.execute(1), waiting = spy.execute(2)
        cancelled.cancel()
        #expect(spy.pendingCount == 1)
        spy.settleNext(with: "two")
        #expect(try waiting.get() == "two")
    }

    @Test func pendingCallsFailAsAbandonedWhenTheSpyGoes() {
        var spy: InteractorSpy<Int, Int>? = InteractorSpy()
        let response = spy!.execute(1)
        spy = nil
        #expect(response.error as? ResponseError == .abandoned)
    }

    @Test func registeredOnAnExecutorItAnswersRequests() throws {
        let spy = InteractorSpy<Request, Int>()
        spy.answer(with: 7)
        let executor = InteractorExecutor()
        executor.register(spy)
        #expect(try executor.execute(Request(id: 1)).get() == 7)
        #expect(spy.lastRequest == Request(id: 1))
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func settleNextWithNothingPendingStopsWithAClearMessage() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            InteractorSpy<Int, Int>().settleNext(with: 1)
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("no call is pending"))
        }
    }
    #endif

    struct Request: InteractorRequest, Equatable {
        typealias Output = Int
        var id: Int
    }
}
