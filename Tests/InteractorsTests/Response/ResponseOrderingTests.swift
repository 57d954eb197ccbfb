import Dispatch
import Interactors
import InteractorsTestKit
import Testing

/// Registration order holds even when a registration races the settlement.
@Suite struct ResponseOrderingTests {
    @Test func handlerRegisteredWhileTheSettlementIsDeliveredRunsAfterTheEarlierOnes() {
        let (response, resolver) = Response<Int>.makePending()
        let entered = Gate()
        let proceed = Gate()
        resolver.onCancel {
            entered.open()
            proceed.wait()
        }
        let order = Recorder<Int>()
        let bothRan = DispatchSemaphore(value: 0)
        response.onResult(on: .immediate) { _ in
            order.record(1)
            bothRan.signal()
        }
        DispatchQueue.global().async { response.cancel() }
        entered.wait()
        response.onResult(on: .immediate) { _ in
            order.record(2)
            bothRan.signal()
        }
        proceed.open()
        #expect(bothRan.wait(timeout: .now() + 10) == .success)
        #expect(bothRan.wait(timeout: .now() + 10) == .success)
        #expect(order.elements == [1, 2])
    }

    @Test func queuedHandlerRegisteredWhileTheSettlementIsDeliveredReachesItsQueueSecond() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        let entered = Gate()
        let proceed = Gate()
        resolver.onCancel {
            entered.open()
            proceed.wait()
        }
        let order = Recorder<Int>()
        response.onResult(on: queue) { _ in order.record(1) }
        let cancelled = Gate()
        DispatchQueue.global().async {
            response.cancel()
            cancelled.open()
        }
        entered.wait()
        response.onResult(on: queue) { _ in order.record(2) }
        proceed.open()
        cancelled.wait()
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
