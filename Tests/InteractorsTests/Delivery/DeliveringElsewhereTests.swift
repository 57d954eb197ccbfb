import Dispatch
import Synchronization
import TestThreads
import Testing

@testable import Interactors

/// What a settlement made on the library's timer thread delivers, in what order, and what a blocked caller leaves
/// behind in a response's state word.
@Suite(.onThreadsOfTheirOwn) struct DeliveringElsewhereTests {
    @Test func aResponseCancelledFromTheTimerThreadRunsItsCancellationHandlersBeforeItsQueuedHandlers() {
        let order = Recorder<String>()
        let heard = Gate()
        let (upstream, resolver) = Response<Int>.makePending()
        resolver.onCancel { order.record("onCancel") }
        upstream.onFailure(on: DispatchQueue(label: "handlers")) { _ in
            order.record("handler")
            heard.open()
        }
        // Its only consumer times out, from the timer thread: the upstream is cancelled there.
        let timed = upstream.timeout(after: .milliseconds(10))
        #expect(heard.wait(guardSeconds: 10))
        #expect(order.elements == ["onCancel", "handler"])
        #expect(timed.isFailed)
        withExtendedLifetime(resolver) {}
    }

    @Test func aTimedOutWaitLeavesNoWakeUpFlagsOnThePendingResponse() {
        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        #expect(throws: ResponseError.timedOut) { try response.get(timeout: .milliseconds(10)) }
        let flags = ResponseState.hasParkedWaiters | ResponseState.closesSlowly
        #expect(response.state.load(ordering: .relaxed) & flags == 0)
        resolver.succeed(1)
        #expect(response.isDone)
    }

    @Test func aCancellationDecidedByTheLastConsumerSparesAResponseThatAnotherConsumerJoinedSince() throws {
        let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        // Joins between the last consumer's release, which decided the cancellation, and the cancellation itself.
        let joined = shared.map { $0 + 1 }
        shared.cancelUnlessConsumed()
        #expect(!shared.isDone)
        resolver.succeed(1)
        #expect(try joined.get() == 2)
    }
}
