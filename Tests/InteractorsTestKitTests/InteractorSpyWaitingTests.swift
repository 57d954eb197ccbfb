import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct InteractorSpyWaitingTests {
    @Test func waitForRequestsReturnsTheFirstOnesOnceMadeOnAnotherThread() throws {
        let spy = InteractorSpy<Int, Int>()
        spy.alwaysAnswer(with: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            for request in 1...3 { _ = spy.execute(request) }
        }
        #expect(try spy.waitForRequests(count: 2, timeout: .seconds(10)) == [1, 2])
    }

    @Test func requestsReturnsTheFirstOnesOnceMadeOnAnotherThread() async throws {
        let spy = InteractorSpy<Int, Int>()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            for request in 1...3 { _ = spy.execute(request) }
        }
        #expect(try await spy.requests(count: 3, timeout: .seconds(10)) == [1, 2, 3])
    }

    @Test func requestsAlreadyMadeAreReturnedAtOnce() async throws {
        let spy = InteractorSpy<String, Int>()
        for request in ["a", "b", "c"] { _ = spy.execute(request) }
        #expect(try await spy.requests(count: 2, timeout: .zero) == ["a", "b"])
        #expect(try await spy.requests(count: 0, timeout: .zero) == [])
    }

    @Test func aBlockingWaitThatRunsOutSaysHowManyRequestsWereMade() throws {
        let spy = InteractorSpy<Int, Int>()
        _ = spy.execute(1)
        let error = try #require(throws: ResponseProbeError.self) {
            try spy.waitForRequests(count: 2, timeout: .milliseconds(20))
        }
        #expect(error.code == .timedOut)
        #expect(error.description.contains("2 requests were not made within"))
        #expect(error.description.contains("1 was"))
        #expect(try spy.waitForRequests(count: 1, timeout: .zero) == [1])
    }

    @Test func aSuspendedWaitThatRunsOutSaysHowManyRequestsWereMade() async throws {
        let spy = InteractorSpy<Int, Int>()
        _ = spy.execute(1)
        let suspended = try await #require(throws: ResponseProbeError.self) {
            try await spy.requests(count: 3, timeout: .milliseconds(20))
        }
        #expect(suspended.code == .timedOut)
        #expect(suspended.description.contains("3 requests were not made"))
    }

    @Test func severalWaitersAreEachWokenWhenTheirCountIsReached() async throws {
        let spy = InteractorSpy<Int, Int>()
        async let two = spy.requests(count: 2, timeout: .seconds(10))
        async let four = spy.requests(count: 4, timeout: .seconds(10))
        DispatchQueue.global().async {
            for request in 1...4 { _ = spy.execute(request) }
        }
        #expect(try await two == [1, 2])
        #expect(try await four == [1, 2, 3, 4])
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func waitingForANegativeCountStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await InteractorSpy<Int, Int>().requests(count: -1, timeout: .zero)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("InteractorSpy<Int, Int>: cannot wait for -1 requests"))
    }
    #endif

    // MARK: Cancelled calls

    @Test func aPendingResponseCancelledDirectlyIsCounted() {
        let spy = InteractorSpy<Int, Int>()
        let first = spy.execute(1), second = spy.execute(2)
        first.cancel()
        first.cancel()
        #expect(spy.cancelledCount == 1)
        withExtendedLifetime(second) {}
    }

    @Test func aPendingResponseWhoseConsumersAllLetGoIsCounted() async {
        let spy = InteractorSpy<Int, Int>()
        let derived = spy.execute(1).map { $0 + 1 }
        derived.cancel()  // its only consumer let go: the spy's response is cancelled too
        #expect(spy.cancelledCount == 1)

        let awaited = spy.execute(2)
        let task = Task { try await awaited.value }
        task.cancel()
        _ = try? await task.value
        #expect(spy.cancelledCount == 2)
    }

    @Test func cancellingASettledResponseIsNotCounted() {
        let spy = InteractorSpy<Int, Int>()
        spy.answer(with: 1)
        let answered = spy.execute(1)
        let pending = spy.execute(2)
        spy.settleNext(with: 2)
        answered.cancel()
        pending.cancel()
        #expect(spy.cancelledCount == 0)
    }

    @Test func anAbandonedCallIsNotCounted() {
        var spy: InteractorSpy<Int, Int>? = InteractorSpy()
        let response = spy!.execute(1)
        spy = nil
        #expect(response.error as? ResponseError == .abandoned)
    }
}
