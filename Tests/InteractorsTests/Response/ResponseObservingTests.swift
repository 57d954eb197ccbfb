import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseObservingTests {
    @Test func handlerRegisteredBeforeSettlementRunsOnce() {
        let (response, resolver) = Response<Int>.makePending()
        let received = Recorder<Int>()
        response.onCompletion(on: .immediate) { received.record($0) }
        resolver.succeed(1)
        resolver.succeed(2)
        #expect(received.elements == [1])
    }

    @Test func handlerRegisteredAfterCompletionRunsOnce() {
        let response = Response(value: 5)
        let received = Recorder<Int>()
        response.onCompletion(on: .immediate) { received.record($0) }
        #expect(received.elements == [5])
    }

    @Test func handlersRunInRegistrationOrder() {
        let (response, resolver) = Response<Int>.makePending()
        let order = Recorder<String>()
        response
            .onCompletion(on: .immediate) { _ in order.record("completion") }
            .onResult(on: .immediate) { _ in order.record("result") }
            .onCompletion(on: .immediate) { _ in order.record("completion 2") }
        resolver.succeed(0)
        #expect(order.elements == ["completion", "result", "completion 2"])
    }

    @Test func handlersChainOnTheSameResponse() {
        let response = Response(value: 1)
        let chained = response.onCompletion(on: .immediate) { _ in }.onFailure(on: .immediate) { _ in }
        #expect(chained === response)
    }

    @Test func successRunsOnlyCompletionAndResultHandlers() {
        let response = Response(value: 1)
        let kinds = Recorder<String>()
        response.onCompletion(on: .immediate) { _ in kinds.record("completion") }
        response.onFailure(on: .immediate) { _ in kinds.record("failure") }
        response.onResult(on: .immediate) { _ in kinds.record("result") }
        #expect(kinds.elements == ["completion", "result"])
    }

    @Test func failureRunsOnlyFailureAndResultHandlers() {
        let response = Response<Int>(error: TestError(id: 1))
        let kinds = Recorder<String>()
        response.onCompletion(on: .immediate) { _ in kinds.record("completion") }
        response.onFailure(on: .immediate) { kinds.record("failure \(($0 as? TestError)?.id ?? -1)") }
        response.onResult(on: .immediate) { _ in kinds.record("result") }
        #expect(kinds.elements == ["failure 1", "result"])
    }

    @Test func immediateHandlerRunsOnTheSettlingThread() {
        let (response, resolver) = Response<Int>.makePending()
        let threads = Recorder<UInt>()
        response.onCompletion(on: .immediate) { _ in threads.record(currentThreadID()) }
        let settled = Gate()
        let settlingThread = Recorder<UInt>()
        DispatchQueue.global().async {
            settlingThread.record(currentThreadID())
            resolver.succeed(1)
            settled.open()
        }
        #expect(settled.wait())
        #expect(threads.elements == settlingThread.elements)
    }

    @Test func immediateHandlerAddedAfterSettlementRunsOnTheRegisteringThread() {
        let threads = Recorder<UInt>()
        Response(value: 1).onCompletion(on: .immediate) { _ in threads.record(currentThreadID()) }
        #expect(threads.elements == [currentThreadID()])
    }

    @Test func dispatchQueueHandlerRunsOnThatQueue() {
        let queue = DispatchQueue(label: "handlers")
        let (response, resolver) = Response<Int>.makePending()
        let ranOnQueue = Recorder<Bool>()
        let done = Gate()
        response.onCompletion(on: queue) { _ in
            ranOnQueue.record(queue.isCurrent)
            done.open()
        }
        resolver.succeed(1)
        #expect(done.wait())
        #expect(ranOnQueue.elements == [true])
    }

    @Test func handlersForOneQueueArriveInOneHop() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        let received = Recorder<Int>()
        for index in 0..<10 { response.onCompletion(on: queue) { received.record($0 + index) } }
        response.onCompletion(on: .immediate) { _ in received.record(-1) }
        resolver.succeed(100)
        #expect(received.elements == [-1])
        #expect(queue.scheduledJobs == 1)
        queue.runAll()
        #expect(received.elements == [-1] + Array(100..<110))
    }

    @Test func customQueueReceivesHandlersAddedAfterSettlement() {
        let queue = ManualCallbackQueue()
        let received = Recorder<Int>()
        Response(value: 3).onCompletion(on: queue) { received.record($0) }
        #expect(received.elements.isEmpty)
        queue.runAll()
        #expect(received.elements == [3])
    }

    @Test func mainActorHandlerRunsOnTheMainQueue() async {
        let response = Response(value: 2)
        await withCheckedContinuation { continuation in
            response.onCompletion(on: .main) { value in
                MainActor.assertIsolated()
                #expect(value == 2)
                continuation.resume()
            }
        }
    }
}

@Suite(.onThreadsOfTheirOwn) struct ResponseObservingOverloadTests {
    @Test func everyKindOfHandlerRunsOnTheResponsesOwnQueue() {
        let queue = ManualCallbackQueue()
        let kinds = Recorder<String>()
        Response(value: 1, callbackQueue: queue)
            .onCompletion { _ in kinds.record("completion") }
            .onResult { _ in kinds.record("result") }
        Response<Int>(error: TestError(), callbackQueue: queue).onFailure { _ in kinds.record("failure") }
        #expect(kinds.elements.isEmpty)
        queue.runAll()
        #expect(kinds.elements == ["completion", "result", "failure"])
    }

    @Test func failureAndResultHandlersRunOnTheMainActor() async {
        let failed = Response<Int>(error: TestError(id: 4))
        let id = await withCheckedContinuation { continuation in
            failed.onFailure(on: .main) { error in
                MainActor.assertIsolated()
                continuation.resume(returning: (error as? TestError)?.id)
            }
        }
        let value = await withCheckedContinuation { continuation in
            Response(value: 6).onResult(on: .main) { outcome in
                MainActor.assertIsolated()
                continuation.resume(returning: try? outcome.get())
            }
        }
        #expect(id == 4)
        #expect(value == 6)
    }

    @Test func descriptionNamesTheStateWithoutWaiting() {
        let (pending, resolver) = Response<Int>.makePending()
        #expect(pending.description == "Response<Int>(pending)")
        resolver.succeed(3)
        #expect(pending.description == "Response<Int>(succeeded: 3)")
        let (cancelled, other) = Response<Int>.makePending()
        cancelled.cancel()
        #expect(cancelled.description == "Response<Int>(cancelled)")
        #expect(Response<Int>(error: TestError(id: 1)).description.hasPrefix("Response<Int>(failed: "))
        withExtendedLifetime(other) {}
    }
}
