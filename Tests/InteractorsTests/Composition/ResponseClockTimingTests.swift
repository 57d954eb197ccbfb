import Interactors
import InteractorsTestKit
import Testing

/// `timeout`, `delay` and `retry` on a `TestClock`: no real time passes; the tests advance the clock, then await
/// the outcome.
@Suite struct ResponseClockTimeoutTests {
    @Test func aThirtySecondTimeoutFiresWhenTheClockReachesIt() async throws {
        let clock = TestClock()
        let (upstream, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(upstream.timeout(after: .seconds(30), clock: clock))

        await clock.advance(by: .seconds(29))
        #expect(!probe.isDone)
        await clock.advance(by: .seconds(1))
        #expect(try await probe.error(timeout: .seconds(60)) as? ResponseError == .timedOut)
        #expect(upstream.isCancelled)  // released by the timeout, and needed by nobody else
        withExtendedLifetime(resolver) {}
    }

    @Test func theDeadlineIsReadAtTheCallNotWhenTheTimersTaskRuns() async throws {
        let clock = TestClock()
        await clock.advance(by: .seconds(10))
        let (upstream, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(upstream.timeout(after: .seconds(30), clock: clock))
        await clock.advance(by: .seconds(20))  // before the timer's task may have begun its sleep

        #expect(try await clock.deadlines(count: 1, timeout: .seconds(60)).map(\.offset) == [.seconds(40)])
        await clock.advance(by: .seconds(10))
        #expect(try await probe.error(timeout: .seconds(60)) as? ResponseError == .timedOut)
        withExtendedLifetime(resolver) {}
    }

    @Test func anOutcomeInTimePassesAndLeavesNoSleeperOnTheClock() async throws {
        let clock = TestClock()
        let (upstream, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(upstream.timeout(after: .seconds(30), clock: clock))
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))  // the sleep has begun

        resolver.succeed(7)
        #expect(try await probe.value(timeout: .seconds(60)) == 7)
        await clock.run()
        #expect(clock.now.offset == .zero)  // the sleep was cancelled: nothing to advance to
    }

    @Test func cancellingTheTimedResponseCancelsTheClocksSleep() async throws {
        let clock = TestClock()
        let (upstream, resolver) = Response<Int>.makePending()
        let timed = upstream.timeout(after: .seconds(30), clock: clock)
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))

        timed.cancel()
        await clock.run()
        #expect(clock.now.offset == .zero)
        #expect(upstream.isCancelled)
        withExtendedLifetime(resolver) {}
    }

    @Test func aSettledUpstreamStartsNoTimer() async throws {
        let clock = TestClock()
        #expect(try await Response(value: 1).timeout(after: .seconds(30), clock: clock).value == 1)
        await clock.run()
        #expect(clock.now.offset == .zero)
    }

    @Test func aClockWhoseSleepFailsFailsTheResponseWithItsError() async throws {
        let (upstream, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(upstream.timeout(after: .seconds(30), clock: FailingClock()))
        #expect(try await probe.error(timeout: .seconds(60)) as? TestError == TestError(id: 99))
        withExtendedLifetime(resolver) {}
    }

    @Test func aContinuousClockTimesOutInRealTime() async throws {
        let (upstream, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(upstream.timeout(after: .milliseconds(10), clock: ContinuousClock()))
        #expect(try await probe.error(timeout: .seconds(60)) as? ResponseError == .timedOut)
        withExtendedLifetime(resolver) {}
    }
}

@Suite struct ResponseClockDelayTests {
    @Test func aDelayWaitsOnTheClockFromWhenTheUpstreamSettles() async throws {
        let clock = TestClock()
        let (upstream, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(upstream.delay(by: .seconds(3), clock: clock))
        await clock.advance(by: .seconds(5))  // the wait has not begun: the upstream is pending

        resolver.succeed(7)  // begins now, until 8 s
        #expect(try await clock.deadlines(count: 1, timeout: .seconds(60)).map(\.offset) == [.seconds(8)])
        await clock.advance(by: .seconds(2))
        #expect(!probe.isDone)
        await clock.advance(by: .seconds(1))
        #expect(try await probe.value(timeout: .seconds(60)) == 7)
    }

    @Test func aFailureIsDelayedToo() async throws {
        let clock = TestClock()
        let probe = ResponseProbe(Response<Int>(error: TestError(id: 1)).delay(by: .microseconds(1), clock: clock))
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))
        #expect(!probe.isDone)
        await clock.advance(by: .microseconds(1))
        #expect(try await probe.error(timeout: .seconds(60)) as? TestError == TestError(id: 1))
    }

    @Test func cancellingADelayedResponseCancelsTheClocksSleep() async throws {
        let clock = TestClock()
        let delayed = Response(value: 7).delay(by: .seconds(3), clock: clock)
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))

        delayed.cancel()
        await clock.run()
        #expect(clock.now.offset == .zero)
        #expect(delayed.isCancelled)
    }

    @Test func aDelayedResponseNobodyHoldsStillSettles() async throws {
        let clock = TestClock()
        let (heard, resolver) = Response<Int>.makePending()
        Response(value: 7).delay(by: .seconds(3), clock: clock).onCompletion(on: .immediate) { resolver.succeed($0) }
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))
        await clock.advance(by: .seconds(3))
        #expect(try await ResponseProbe(heard).value(timeout: .seconds(60)) == 7)
    }
}

@Suite struct ResponseClockRetryTests {
    @Test func aFiveAttemptExponentialRetryWaitsOneTwoFourAndEightSeconds() async throws {
        let clock = TestClock()
        let feed = InteractorSpy<Int, String>()
        let probe = ResponseProbe(
            Response.retry(times: 4, delay: .seconds(1), backoff: 2, clock: clock) { feed.execute(0) }
        )

        for (retry, wait) in [1, 2, 4, 8].enumerated() {
            _ = try await feed.requests(count: retry + 1, timeout: .seconds(60))
            feed.settleNext(withError: TestError(id: retry))  // the wait begins now
            let deadlines = try await clock.deadlines(count: retry + 1, timeout: .seconds(60))
            #expect(clock.now.duration(to: deadlines[retry]) == .seconds(wait))
            await clock.advance(by: .seconds(wait))
        }
        _ = try await feed.requests(count: 5, timeout: .seconds(60))
        feed.settleNext(with: "the feed")
        #expect(try await probe.value(timeout: .seconds(60)) == "the feed")
        #expect(clock.now.offset == .seconds(15))
    }

    @Test func theWaitIsCappedAtMaxDelay() async throws {
        let clock = TestClock()
        let feed = InteractorSpy<Int, String>()
        feed.alwaysAnswer(withError: TestError(id: 1))  // every attempt fails at once, where it is made
        let probe = ResponseProbe(
            Response.retry(times: 5, delay: .seconds(1), backoff: 10, maxDelay: .seconds(30), clock: clock) {
                feed.execute(0)
            }
        )
        var waits: [Duration] = []
        for retry in 0..<5 {
            let deadline = try await clock.deadlines(count: retry + 1, timeout: .seconds(60))[retry]
            waits.append(clock.now.duration(to: deadline))
            await clock.advance(to: deadline)
        }
        #expect(waits == [1, 10, 30, 30, 30].map(Duration.seconds))
        #expect(try await probe.error(timeout: .seconds(60)) as? TestError == TestError(id: 1))
        #expect(feed.executeCount == 6)
    }

    @Test func jitterDrawsEachWaitAfreshWithinItsBounds() async throws {
        let clock = TestClock()
        let feed = InteractorSpy<Int, String>()
        feed.alwaysAnswer(withError: TestError(id: 1))
        let probe = ResponseProbe(
            Response.retry(times: 20, delay: .seconds(2), jitter: 0.25, clock: clock) { feed.execute(0) }
        )
        var waits: [Duration] = []
        for retry in 0..<20 {
            let deadline = try await clock.deadlines(count: retry + 1, timeout: .seconds(60))[retry]
            waits.append(clock.now.duration(to: deadline))
            await clock.advance(to: deadline)
        }
        #expect(waits.allSatisfy { (.milliseconds(1500)...(.milliseconds(2500))).contains($0) })
        #expect(Set(waits).count > 1)
        #expect(try await probe.error(timeout: .seconds(60)) is TestError)
    }

    @Test func cancellingARetryWhileItWaitsCancelsTheClocksSleep() async throws {
        let clock = TestClock()
        let feed = InteractorSpy<Int, String>()
        feed.alwaysAnswer(withError: TestError(id: 1))
        let retried = Response.retry(times: 3, delay: .seconds(1), clock: clock) { feed.execute(0) }
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))

        retried.cancel()
        await clock.run()
        #expect(clock.now.offset == .zero)
        #expect(retried.isCancelled)
        #expect(feed.executeCount == 1)
    }

    @Test func aClockWhoseSleepFailsEndsTheRetryWithItsError() async throws {
        let attempts = Counter()
        let probe = ResponseProbe(
            Response<Int>.retry(times: 3, delay: .seconds(1), clock: FailingClock()) {
                attempts.increment()
                return Response(error: TestError(id: 1))
            }
        )
        #expect(try await probe.error(timeout: .seconds(60)) as? TestError == TestError(id: 99))
        #expect(attempts.value == 1)
    }
}

/// A clock whose sleeps fail at once with `TestError(id: 99)`.
struct FailingClock: Clock {
    var now: ContinuousClock.Instant { ContinuousClock.now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        throw TestError(id: 99)
    }
}
