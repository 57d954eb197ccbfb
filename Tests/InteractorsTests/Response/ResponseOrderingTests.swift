import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

/// Registration order holds even when a registration races the settlement.
@Suite(.onThreadsOfTheirOwn) struct ResponseOrderingTests {
    @Test func handlerRegisteredWhileTheSettlementIsDeliveredRunsAfterTheEarlierOnes() {
        let (response, resolver) = Response<Int>.makePending()
        let order = Recorder<Int>()
        response.onResult(on: .immediate) { _ in order.record(1) }
        let cancellation = PausedCancellation(of: response, resolver: resolver)
        response.onResult(on: .immediate) { _ in order.record(2) }
        cancellation.resumeAndWait()
        #expect(order.elements == [1, 2])
    }

    @Test func queuedHandlerRegisteredWhileTheSettlementIsDeliveredReachesItsQueueSecond() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        let order = Recorder<Int>()
        response.onResult(on: queue) { _ in order.record(1) }
        let cancellation = PausedCancellation(of: response, resolver: resolver)
        response.onResult(on: queue) { _ in order.record(2) }
        cancellation.resumeAndWait()
        queue.runAll()
        #expect(order.elements == [1, 2])
    }

    @Test func aHandlerThatBlocksOnItsOwnResponseGetsTheOutcome() throws {
        let (response, resolver) = Response<Int>.makePending()
        let seen = Recorder<Int>()
        response.onCompletion(on: .immediate) { _ in
            if let value = try? response.get() { seen.record(value) }
        }
        resolver.succeed(8)
        #expect(seen.elements == [8])
    }
}
