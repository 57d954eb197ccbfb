import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseLifetimeTests {
    @Test func handlerAndItsCapturesAreReleasedOnceItHasRun() {
        let (response, resolver) = Response<Int>.makePending()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            response.onCompletion(on: .immediate) { _ in _ = tracked }
        }
        #expect(weakTracked != nil)
        resolver.succeed(1)
        #expect(weakTracked == nil)
    }

    @Test func queuedHandlerIsReleasedOnceItHasRun() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            response.onCompletion(on: queue) { _ in _ = tracked }
        }
        resolver.succeed(1)
        #expect(weakTracked != nil)
        queue.runAll()
        #expect(weakTracked == nil)
    }

    @Test func settledResponseCapturedByItsOwnHandlerIsFreed() {
        weak var weakResponse: Response<Int>?
        do {
            let (response, resolver) = Response<Int>.makePending()
            weakResponse = response
            response.onCompletion(on: .immediate) { _ in _ = response }
            resolver.succeed(1)
        }
        #expect(weakResponse == nil)
    }

    @Test func failureHandlerIsReleasedWhenTheResponseSucceeds() {
        let (response, resolver) = Response<Int>.makePending()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            response.onFailure(on: .immediate) { _ in _ = tracked }
        }
        resolver.succeed(1)
        #expect(weakTracked == nil)
    }

    @Test func completedQueuedWorkReleasesTheResponse() throws {
        weak var weakResponse: Response<Int>?
        let serial = DispatchQueue(label: "work")
        do {
            let response = Response(on: serial) { 1 }
            weakResponse = response
            #expect(try response.get() == 1)
        }
        serial.sync {}
        #expect(weakResponse == nil)
    }
}
