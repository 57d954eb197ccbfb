import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

/// Progress reaches each handler as a rising sequence, whichever threads report it.
@Suite(.onThreadsOfTheirOwn) struct ResponseProgressOrderTests {
    @Test func progressReportedFromTwoThreadsReachesAnImmediateHandlerInOrder() {
        let (response, resolver) = Response<Int>.makePending()
        let heard = Recorder<Double>()
        response.onProgress(on: .immediate) { heard.record($0) }
        let group = DispatchGroup()
        for parity in 0..<2 {
            DispatchQueue.global().async(group: group) {
                for step in stride(from: parity, to: 4_000, by: 2) { resolver.reportProgress(Double(step) / 4_000) }
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        let fractions = heard.elements
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 })
        resolver.succeed(1)
    }

    @Test func aFractionReportedWhileAnImmediateHandlerRunsWaitsForIt() {
        let (response, resolver) = Response<Int>.makePending()
        let heard = Recorder<Double>()
        let entered = Gate()
        let proceed = Gate()
        response.onProgress(on: .immediate) { fraction in
            if fraction == 0.1 {
                entered.open()
                proceed.wait()
            }
            heard.record(fraction)
        }
        let firstDone = Gate()
        DispatchQueue.global().async {
            resolver.reportProgress(0.1)
            firstDone.open()
        }
        entered.wait()
        let secondDone = Gate()
        DispatchQueue.global().async {
            resolver.reportProgress(0.2)
            secondDone.open()
        }
        secondDone.wait()
        proceed.open()
        firstDone.wait()
        #expect(heard.elements == [0.1, 0.2])
        resolver.succeed(1)
    }

    @Test func aLateHandlerHearsTheLatestFractionBeforeANewerOne() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        resolver.reportProgress(0.2)
        let heard = Recorder<Double>()
        response.onProgress(on: queue) { heard.record($0) }
        resolver.reportProgress(0.5)
        queue.runAll()
        #expect(heard.elements.last == 0.5)
        #expect(zip(heard.elements, heard.elements.dropFirst()).allSatisfy { $0 < $1 })
        resolver.succeed(1)
    }
}
