import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

/// The promises a blocked caller relies on: it returns by its deadline, it never deadlocks on work owed to its
/// own queue (whenever that work appears), and it returns only once the settlement has been delivered.
@Suite(.onThreadsOfTheirOwn) struct ResponseBlockingPromiseTests {
    @Test func timedWaitReturnsByItsDeadlineInsteadOfRunningGlobalWork() {
        let release = Gate()
        let finished = Counter()
        let response = Response(on: DispatchQueue.global()) {
            release.wait(guardSeconds: 5)
            finished.increment()
            return 1
        }
        #expect(throws: ResponseError.timedOut) { try response.get(timeout: .milliseconds(50)) }
        #expect(finished.value == 0)
        release.open()
    }

    @Test func timeoutFailsNearItsDeadlineWhileTheWorkRunsOn() {
        let release = Gate()
        let finished = Counter()
        let response = Response(on: DispatchQueue.global()) {
            release.wait(guardSeconds: 5)
            finished.increment()
            return 1
        }
        .timeout(after: .milliseconds(50))
        let outcome = finishing { try response.get() }
        #expect(outcome.map { throwsTimedOut($0) } == true)
        #expect(finished.value == 0)
        release.open()
    }

    @Test func blockingOnAQueueRunsAFlatMapStageQueuedThereAfterTheWaitBegan() throws {
        let outcome = blockingOnItsOwnQueue { serial in
            Response(on: DispatchQueue.global()) { 1 }.flatMap { value in Response(on: serial) { value + 1 } }
        }
        #expect(try outcome?.get() == 2)
    }

    @Test func blockingOnAQueueRunsAFlatRecoverStageQueuedThereAfterTheWaitBegan() throws {
        let outcome = blockingOnItsOwnQueue { serial in
            Response<Int>(on: DispatchQueue.global()) { throw TestError() }
                .flatRecover { _ in Response(on: serial) { 5 } }
        }
        #expect(try outcome?.get() == 5)
    }

    @Test func blockingOnAQueueRunsARetryAttemptQueuedThereAfterTheWaitBegan() throws {
        let attempts = Counter()
        let outcome = blockingOnItsOwnQueue { serial in
            Response<Int>.retry(times: 1) {
                attempts.increment()
                if attempts.value == 1 { return Response(on: DispatchQueue.global()) { throw TestError() } }
                return Response(on: serial) { 9 }
            }
        }
        #expect(try outcome?.get() == 9)
    }

    @Test func blockingOnAQueueRunsADelayedRetryAttemptQueuedThereAfterAttemptsThatFailedAtOnce() throws {
        let attempts = Counter()
        let outcome = blockingOnItsOwnQueue { serial in
            Response<Int>.retry(times: 1, delay: .milliseconds(5)) {
                attempts.increment()
                if attempts.value == 1 { return Response(error: TestError()) }
                return Response(on: serial) { 4 }
            }
        }
        #expect(try outcome?.get() == 4)
    }

    @Test func getReturnsOnlyOnceEveryEarlierHandlerHasBeenHandedToItsQueue() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        let ran = Counter()
        response.onResult(on: queue) { _ in ran.increment() }
        let cancellation = PausedCancellation(of: response, resolver: resolver)
        cancellation.resumeElsewhere()
        _ = response.result
        queue.runAll()
        #expect(ran.value == 1)
    }

    @Test func aDeferredSettlementWakesItsBlockedCallerAtOnce() throws {
        let (head, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        var chain = [head]
        for _ in 0..<29 { chain.append(chain[chain.count - 1].map { $0 + 1 }) }
        let release = Gate()
        let released = Counter()
        // Runs after the chain's stages, on the settling thread, which cannot unwind until it is released.
        head.onResult(on: .immediate) { _ in
            release.wait(guardSeconds: 5)
            released.increment()
        }
        let settled = Gate()
        DispatchQueue.global().async {
            resolver.succeed(0)
            settled.open()
        }
        #expect(try chain[24].get() == 24)
        #expect(try chain[29].get() == 29)
        #expect(released.value == 0)
        release.open()
        settled.wait()
    }

    @Test func aCallerBlockedOnAResponseKeepsItFromBeingCancelledByItsConsumers() throws {
        let serial = DispatchQueue(label: "serial")
        let value = try serial.sync {
            let derived = Box<Response<Int>?>(nil)
            // The work runs in the blocked caller's place, and cancels the response's only derived consumer.
            let shared = Response(on: serial) {
                derived.value?.cancel()
                return 5
            }
            derived.value = shared.map { $0 }
            return try shared.get()
        }
        #expect(value == 5)
    }

    @Test func aBlockedCallerLeavingDoesNotCancelAResponseNobodyGaveUp() {
        let (response, resolver) = Response<Int>.makePending()
        #expect(throws: ResponseError.timedOut) { try response.get(timeout: .milliseconds(10)) }
        #expect(!response.isDone)
        resolver.succeed(1)
    }

    @Test func blockingOnTheOwedQueueForAResponseOwedThereStillRunsItWithATimeout() throws {
        let serial = DispatchQueue(label: "serial")
        let value = try serial.sync { try Response(on: serial) { 3 }.get(timeout: .seconds(10)) }
        #expect(value == 3)
    }
}

/// Blocks, on a serial queue, for the response `make` builds there (given that queue): a deadlock fails the
/// test through `finishing`'s guard instead of hanging the suite.
private func blockingOnItsOwnQueue(
    _ make: @escaping @Sendable (DispatchQueue) -> Response<Int>
) -> Result<Int, any Error>? {
    let serial = DispatchQueue(label: "serial")
    return finishing { try serial.sync { try make(serial).get() } }
}

private func throwsTimedOut<T>(_ result: Result<T, any Error>) -> Bool {
    guard case .failure(let error) = result else { return false }
    return error as? ResponseError == .timedOut
}

extension GlobalPoolSaturatingTests {
    @Suite struct ResponseBlockingSaturationTests {
        @Test func timeoutFiresWhileTheGlobalPoolIsSaturated() {
            let pool = SaturatedPool()
            let (response, resolver) = Response<Int>.makePending()
            let timed = response.timeout(after: .milliseconds(50))
            #expect(throws: ResponseError.timedOut) { try timed.get(timeout: .seconds(30)) }
            #expect(pool.isStillSaturated)
            pool.release()
            withExtendedLifetime(resolver) {}
        }
    }
}
