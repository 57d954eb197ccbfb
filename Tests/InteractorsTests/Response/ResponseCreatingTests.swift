import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseCreatingTests {
    @Test func workOnAQueueSucceedsWithItsValue() throws {
        let response = Response(on: DispatchQueue.global()) { 21 * 2 }
        #expect(try response.get() == 42)
    }

    @Test func workThatThrowsFailsWithItsError() {
        let response = Response<Int>(on: DispatchQueue.global()) { throw TestError(id: 7) }
        #expect(throws: TestError(id: 7)) { try response.get() }
    }

    @Test func workStartsWithoutAnyoneObserving() {
        let started = Gate()
        _ = Response(on: DispatchQueue.global()) { started.open() }
        #expect(started.wait())
    }

    @Test func immediateWorkRunsBeforeTheInitializerReturns() {
        let response = Response(on: .immediate) { 5 }
        #expect(response.isSuccessful)
    }

    @Test func resolverBodyRunsBeforeTheInitializerReturns() {
        let ran = Counter()
        let response = Response<Int> { resolver in
            ran.increment()
            resolver.succeed(1)
        }
        #expect(ran.value == 1)
        #expect(response.isSuccessful)
    }

    @Test func resolverBodyThatThrowsFailsTheResponse() {
        let response = Response<Int> { _ in throw TestError(id: 2) }
        #expect(throws: TestError(id: 2)) { try response.get() }
    }

    @Test func resolverBodyCanSettleLaterFromAnotherThread() throws {
        let response = Response<String> { resolver in
            DispatchQueue.global().async { resolver.succeed("later") }
        }
        #expect(try response.get() == "later")
    }

    @Test func asyncWorkSucceedsWithItsValue() async throws {
        let response = Response { try await nine() }
        #expect(try await response.value == 9)
    }

    @Test func asyncWorkThatThrowsFailsWithItsError() async {
        let response = Response<Int> { () async throws -> Int in throw TestError(id: 3) }
        await #expect(throws: TestError(id: 3)) { try await response.value }
    }

    @Test func settledCreatorsAreDoneAtOnce() {
        #expect(Response(value: 3).isSuccessful)
        #expect(Response<Int>(error: TestError()).isFailed)
        #expect(Response<Int>(result: .success(1)).isSuccessful)
    }

    @Test func makePendingReturnsALabelledPair() throws {
        let pending = Response<Int>.makePending()
        #expect(!pending.response.isDone)
        pending.resolver.succeed(4)
        #expect(try pending.response.get() == 4)
    }

    @Test func callbackQueueGivenAtCreationReceivesUnplacedHandlers() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending(callbackQueue: queue)
        let received = Recorder<Int>()
        response.onCompletion { received.record($0) }
        resolver.succeed(8)
        #expect(received.elements.isEmpty)
        queue.runAll()
        #expect(received.elements == [8])
    }

    @Test func callbackQueueCanBeGivenToEveryCreator() {
        let queue = ManualCallbackQueue()
        let responses: [Response<Int>] = [
            Response(on: .immediate, callbackQueue: queue) { 1 },
            Response(callbackQueue: queue) { $0.succeed(1) },
            Response(value: 1, callbackQueue: queue),
            Response(error: TestError(), callbackQueue: queue),
            Response(result: .success(1), callbackQueue: queue),
        ]
        for response in responses { response.onResult { _ in } }
        #expect(queue.runAll() == responses.count)
    }
}

private func nine() async throws -> Int {
    await Task.yield()
    return 9
}
