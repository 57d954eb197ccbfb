import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseProgressTests {
    @Test func progressHandlersHearARisingClampedSequence() {
        let (response, resolver) = Response<Int>.makePending()
        let fractions = Recorder<Double>()
        response.onProgress(on: .immediate) { fractions.record($0) }
        for fraction in [-1, 0.2, 0.1, 0.2, 0.7, 2, 0.9] { resolver.reportProgress(fraction) }
        resolver.reportProgress(.nan)
        #expect(fractions.elements == [0, 0.2, 0.7, 1])
    }

    @Test func progressIsNeverDeliveredAfterSettlement() {
        let (response, resolver) = Response<Int>.makePending()
        let queue = ManualCallbackQueue()
        let fractions = Recorder<Double>()
        response.onProgress(on: queue) { fractions.record($0) }
        resolver.reportProgress(0.5)
        resolver.succeed(1)
        resolver.reportProgress(0.8)
        queue.runAll()
        #expect(fractions.elements.isEmpty)
    }

    @Test func lateProgressHandlerHearsTheLatestFractionFirst() {
        let (response, resolver) = Response<Int>.makePending()
        resolver.reportProgress(0.4)
        let fractions = Recorder<Double>()
        response.onProgress(on: .immediate) { fractions.record($0) }
        resolver.reportProgress(0.6)
        #expect(fractions.elements == [0.4, 0.6])
    }

    @Test func progressSequenceEndsWhenTheResponseSettles() async {
        let (response, resolver) = Response<Int>.makePending()
        let sequence = response.progress
        DispatchQueue.global().async {
            resolver.reportProgress(0.25)
            resolver.reportProgress(0.5)
            resolver.succeed(1)
        }
        var fractions: [Double] = []
        for await fraction in sequence { fractions.append(fraction) }
        #expect(fractions == [0.25, 0.5])
    }

    @Test func progressHandlerIsReleasedWhenTheResponseSettles() {
        let (response, resolver) = Response<Int>.makePending()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            response.onProgress(on: .immediate) { _ in _ = tracked }
        }
        resolver.succeed(1)
        #expect(weakTracked == nil)
    }
}

@Suite(.onThreadsOfTheirOwn) struct ResponseProgressQueueTests {
    @Test func progressGoesToTheResponsesOwnQueueByDefault() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending(callbackQueue: queue)
        let fractions = Recorder<Double>()
        response.onProgress { fractions.record($0) }
        resolver.reportProgress(0.3)
        #expect(fractions.elements.isEmpty)
        queue.runAll()
        #expect(fractions.elements == [0.3])
    }

    @Test func progressHandlersRunOnTheMainActor() async {
        let (response, resolver) = Response<Int>.makePending()
        let fraction = await withCheckedContinuation { continuation in
            response.onProgress(on: .main) { fraction in
                MainActor.assertIsolated()
                continuation.resume(returning: fraction)
            }
            resolver.reportProgress(0.5)
        }
        #expect(fraction == 0.5)
    }
}
