import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

/// Where an interactor's work runs: the queue it was built with, the per-call override, and blocking for one
/// interactor from inside another on a shared serial queue.
@Suite(.onThreadsOfTheirOwn) struct InteractorQueueTests {
    @Test func workRunsOnTheQueueTheInteractorWasBuiltWith() throws {
        let queue = DispatchQueue(label: "work")
        let onQueue = LockedBox<Bool?>(nil)
        let interactor = AnyInteractor<Int, Int> { number in
            Response(on: queue) {
                onQueue.withLock { $0 = queue.isCurrent }
                return number
            }
        }
        #expect(try interactor.execute(1).get() == 1)
        #expect(onQueue.withLock { $0 } == true)
    }

    @Test func anInteractorThatThrowsInsideResponseOnFailsWithThatError() {
        let interactor = AnyInteractor<Int, Int> { _ in
            Response(on: DispatchQueue(label: "work")) { throw TestError(id: 4) }
        }
        #expect(throws: TestError(id: 4)) { try interactor.execute(0).get() }
    }

    @Test func executeOnRunsTheInteractorsExecuteOnThatQueue() throws {
        let queue = DispatchQueue(label: "override")
        let onQueue = LockedBox<Bool?>(nil)
        let interactor = AnyInteractor<Int, Int> { number in
            onQueue.withLock { $0 = queue.isCurrent }
            return Response(value: number)
        }
        #expect(try interactor.execute(3, on: queue).get() == 3)
        #expect(onQueue.withLock { $0 } == true)

        let executor = InteractorExecutor()
        executor.register(DoubleRequest.self) { DoubleInteractor() }
        #expect(try executor.execute(DoubleRequest(number: 4), on: queue).get() == 8)
    }

    @Test func cancellingBeforeThePerCallQueueRunsMeansTheInteractorNeverStarts() {
        let queue = ManualCallbackQueue()
        let started = Counter()
        let interactor = AnyInteractor<Int, Int> { number in
            started.increment()
            return Response(value: number)
        }
        let response = interactor.execute(1, on: queue)
        response.cancel()
        queue.runAll()
        #expect(started.value == 0)
        #expect(response.isCancelled)
    }

    @Test func cancellingThePerCallResponseCancelsTheInteractorsResponse() {
        let (pending, resolver) = Response<Int>.makePending()
        let cancelled = Gate()
        resolver.onCancel { cancelled.open() }
        let queue = ManualCallbackQueue()
        let response = AnyInteractor<Int, Int> { _ in pending }.execute(0, on: queue)
        queue.runAll()
        response.cancel()
        #expect(cancelled.wait())
        #expect(pending.isCancelled)
    }

    @Test func anInteractorOnASerialQueueBlocksForASecondInteractorOnTheSameQueueWithoutDeadlock() {
        let serial = DispatchQueue(label: "use-cases")
        let executor = InteractorExecutor()
        executor.register(DoubleInteractor(queue: serial))
        // The outer use case runs on `serial` too, and blocks there for the inner one: plain `get()`, no
        // `.immediate` by hand.
        let outer = AnyInteractor<Int, Int> { number in
            Response(on: serial) { try executor.execute(DoubleRequest(number: number)).get() + 1 }
        }
        let result = Recorder<Int>()
        let done = onAnotherThread { result.record((try? outer.execute(20).get()) ?? -1) }
        wait(for: done, "the outer use case")
        #expect(result.elements == [41])
    }

    @Test
    func blockingOnTheQueueGivenToExecuteOnRunsTheInteractorAndTheWorkItQueuesThere() {
        let serial = DispatchQueue(label: "use-cases")
        let executor = InteractorExecutor()
        executor.register(DoubleInteractor(queue: serial))
        // A caller on `serial` executes on `serial` and blocks: it runs the queued call in its place, and that
        // call queues the interactor's own work to `serial` after the wait began.
        let result = Recorder<Int>()
        let done = Gate()
        serial.async {
            result.record((try? executor.execute(DoubleRequest(number: 5), on: serial).get()) ?? -1)
            done.open()
        }
        #expect(done.wait(guardSeconds: 10), "deadlocked: the caller on the serial queue never returned")
        #expect(result.elements == [10])
    }
}
