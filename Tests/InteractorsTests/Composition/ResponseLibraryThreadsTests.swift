import Dispatch
import TestThreads
import Testing

@testable import Interactors

/// The library's own timers, retries and deliveries with Dispatch's global pool saturated on purpose: each call
/// returns near its deadline, and the pool is still saturated when it does, so none of it needed the pool.
extension GlobalPoolSaturatingTests {
    @Suite struct LibraryThreadsSaturationTests {
        /// How late past its deadline a call may return here. The library's own figure is within 50 ms (see
        /// BENCHMARKS.md); a busy machine or a sanitizer adds scheduling delays a test must tolerate.
        static let slack = Duration.seconds(1)

        @Test func aDelayedResponseSettlesNearItsDeadline() {
            SaturatedPool.whileSaturated { pool in
                let start = ContinuousClock.now
                let delayed = Response(value: 7, callbackQueue: .immediate).delay(by: .milliseconds(100))
                #expect((try? delayed.get(timeout: .seconds(20))) == 7)
                let elapsed = ContinuousClock.now - start
                #expect(elapsed >= .milliseconds(100))
                #expect(elapsed < .milliseconds(100) + Self.slack)
                #expect(pool.isStillSaturated)
            }
        }

        @Test func aDelayedResponsesStagesAndHandlersRunWhenNobodyWaitsForThem() {
            SaturatedPool.whileSaturated { pool in
                let start = ContinuousClock.now
                let staged = Gate()
                let queued = Gate()
                let delayed = Response(value: 1).delay(by: .milliseconds(100))
                delayed.map { $0 + 1 }.onCompletion(on: .immediate) { _ in staged.open() }
                delayed.onCompletion(on: DispatchQueue(label: "handlers")) { _ in queued.open() }
                #expect(staged.wait(guardSeconds: 20))
                #expect(queued.wait(guardSeconds: 20))
                #expect(ContinuousClock.now - start < .milliseconds(100) + Self.slack)
                #expect(pool.isStillSaturated)
            }
        }

        @Test func eachRetryWaitsOnTheTimerThreadWhichStartsTheNextAttempt() {
            SaturatedPool.whileSaturated { pool in
                let threads = Recorder<String>()
                let attempts = Counter()
                let start = ContinuousClock.now
                let retried = Response.retry(times: 2, delay: .milliseconds(100)) { () -> Response<Int> in
                    attempts.increment()
                    threads.record(currentThreadName() ?? "unknown")
                    return attempts.value < 3 ? Response(error: TestError(id: attempts.value)) : Response(value: 42)
                }
                #expect((try? retried.get(timeout: .seconds(20))) == 42)
                let elapsed = ContinuousClock.now - start
                #expect(elapsed >= .milliseconds(200))
                #expect(elapsed < .milliseconds(200) + Self.slack)
                #expect(pool.isStillSaturated)
                #if os(Linux)
                #expect(Array(threads.elements.dropFirst()) == ["ix.timer", "ix.timer"])
                #endif
            }
        }

        @Test func aRetrysHandlerOnAQueueHearsTheOutcomeNearTheLastDeadline() {
            SaturatedPool.whileSaturated { pool in
                let attempts = Counter()
                let heard = Gate()
                let start = ContinuousClock.now
                let serial = DispatchQueue(label: "attempts")
                Response.retry(times: 2, delay: .milliseconds(50), backoff: 2) { () -> Response<Int> in
                    attempts.increment()
                    let attempt = attempts.value
                    // Attempts that fail later, on a queue of their own: the waits start from there.
                    return Response(on: serial) { () throws -> Int in
                        if attempt < 3 { throw TestError(id: attempt) }
                        return attempt
                    }
                }
                .onCompletion(on: DispatchQueue(label: "handlers")) { _ in heard.open() }
                #expect(heard.wait(guardSeconds: 20))
                #expect(attempts.value == 3)
                #expect(ContinuousClock.now - start < .milliseconds(150) + Self.slack)
                #expect(pool.isStillSaturated)
            }
        }

        @Test func aTimedOutResponsesStagesRunWhenNobodyWaitsForThem() {
            SaturatedPool.whileSaturated { pool in
                let (slow, resolver) = Response<Int>.makePending()
                let heard = Gate()
                let start = ContinuousClock.now
                slow.timeout(after: .milliseconds(100)).recover { _ in -1 }.onCompletion(on: .immediate) { _ in
                    heard.open()
                }
                #expect(heard.wait(guardSeconds: 20))
                #expect(ContinuousClock.now - start < .milliseconds(100) + Self.slack)
                #expect(pool.isStillSaturated)
                withExtendedLifetime(resolver) {}
            }
        }

        /// The reproduction: the waiters are the pool's own threads, blocked, and the pool grows slowly.
        @Test func waitersOnATimedOutMapFromPoolThreadsAllReturnSoon() {
            let waiters = 32
            let (slow, resolver) = Response<Int>.makePending()
            let returned = DispatchSemaphore(value: 0)
            let timedOut = Counter()
            let start = ContinuousClock.now
            for _ in 0..<waiters {
                let mapped = slow.timeout(after: .milliseconds(200)).map { $0 + 1 }
                DispatchQueue.global().async {
                    do {
                        _ = try mapped.get()
                    } catch {
                        if error as? ResponseError == .timedOut { timedOut.increment() }
                    }
                    returned.signal()
                }
            }
            for _ in 0..<waiters { #expect(returned.wait(timeout: .now() + 20) == .success) }
            #expect(ContinuousClock.now - start < .seconds(3))
            #expect(timedOut.value == waiters)
            withExtendedLifetime(resolver) {}
        }

        @Test func retriesStartNoThreadPerCall() throws {
            // The library's threads exist before the count: a first retry through the timer, a first delivery.
            _ = try Response<Int>.retry(times: 1, delay: .milliseconds(1)) { Response(value: 0) }.get()
            let before = otherThreadsInThisProcess()
            let attempts = Counter()
            let retried = (0..<1_000).map { index in
                Response<Int>.retry(times: 1, delay: .milliseconds(20)) {
                    attempts.increment()
                    return attempts.value.isMultiple(of: 2) ? Response(value: index) : Response(error: TestError(id: 1))
                }
            }
            for response in retried { _ = try? response.get(timeout: .seconds(20)) }
            #expect(attempts.value >= 1_000)
            guard let before, let after = otherThreadsInThisProcess(), let names = threadNamesInThisProcess() else {
                return  // no /proc
            }
            #expect(names.count { $0 == "ix.timer" } == 1)
            // Delivery threads beyond the pool's size stand in for ones blocked on the library (another test's
            // blocked stages, running meanwhile), and leave once those return.
            #expect(
                eventually {
                    let delivering = threadNamesInThisProcess()?.count { $0 == "ix.deliver" } ?? 0
                    return delivering <= DeliveryThreads.threadCount + DeliveryThreads.blockedThreads
                }
            )
            // The library's own threads are counted above; other tests running meanwhile start threads of their
            // own, hence a margin far below the 1,000 a thread per call would add.
            #expect(after - before <= 32)
        }
    }
}

/// A caller blocked downstream of a settlement whose delivery was deferred delivers it itself: it never waits for
/// the library's delivery threads, nor for the outer handler of the thread that deferred it.
@Suite(.serialized, .onThreadsOfTheirOwn) struct ResponseDeferredDeliveryClaimTests {
    @Test func aCallerBlockedOnATimedOutMapDeliversItWhileTheDeliveryThreadsAreBusy() throws {
        let release = Gate()
        let entered = DispatchSemaphore(value: 0)
        let (stuck, stuckResolver) = Response<Int>.makePending()
        // Each delivery thread runs a stage that blocks until the end of the test.
        let blocking = (0..<DeliveryThreads.threadCount).map { _ in
            stuck.timeout(after: .milliseconds(1)).recover { _ -> Int in
                entered.signal()
                release.wait()
                return 0
            }
        }
        for _ in blocking { #expect(entered.wait(timeout: .now() + 20) == .success) }
        let start = ContinuousClock.now
        let (slow, resolver) = Response<Int>.makePending()
        let mapped = slow.timeout(after: .milliseconds(100)).map { $0 + 1 }
        #expect(throws: ResponseError.timedOut) { try mapped.get(timeout: .seconds(10)) }
        #expect(ContinuousClock.now - start < .seconds(2))
        release.open(count: blocking.count)
        for response in blocking { #expect(try response.get(timeout: .seconds(10)) == 0) }
        withExtendedLifetime((resolver, stuckResolver)) {}
    }

    @Test func aCallerBlockedOnAResponseQueuedDeepInAnotherThreadsDrainDeliversIt() throws {
        let (root, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        var chain: [Response<Int>] = []
        var last = root
        for _ in 0..<30 {
            last = last.map { $0 + 1 }
            chain.append(last)
        }
        // Registered after the chain's first stage: it runs once the nested settlements unwind, before the
        // settling thread's drain gets to what it queued past the depth limit.
        let outerHandlerMayFinish = Gate()
        let outerHandlerFinished = Box(false)
        root.onCompletion(on: .immediate) { _ in
            outerHandlerMayFinish.wait()
            outerHandlerFinished.value = true
        }
        let settler = TestThread { resolver.succeed(0) }
        #expect(try chain[29].get(timeout: .seconds(10)) == 30)
        #expect(!outerHandlerFinished.value)
        outerHandlerMayFinish.open()
        settler.join()
        #expect(outerHandlerFinished.value)
    }
}

/// How many threads the process has whose names are not the library's (`ix.` and the role), which the tests count
/// by name; `nil` where there is no telling.
private func otherThreadsInThisProcess() -> Int? {
    threadNamesInThisProcess()?.count { !$0.hasPrefix("ix.") }
}
