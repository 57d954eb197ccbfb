import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseTimingTests {
    @Test func timeoutFailsWithTimedOutWhenTheUpstreamIsLate() {
        let (upstream, resolver) = Response<Int>.makePending()
        #expect(throws: ResponseError.timedOut) { try upstream.timeout(after: .milliseconds(10)).get() }
        withExtendedLifetime(resolver) {}
    }

    @Test func timeoutPassesAnOutcomeThatArrivesInTime() throws {
        #expect(try Response(value: 1).timeout(after: .seconds(30)).get() == 1)
    }

    @Test func delayDeliversTheOutcomeLater() throws {
        let delayed = Response(value: 3).delay(by: .milliseconds(20))
        #expect(!delayed.isDone)
        #expect(try delayed.get() == 3)
    }

    @Test func retryMakesANewAttemptUntilOneSucceeds() throws {
        let attempts = Counter()
        let retried = Response.retry(times: 3) { () -> Response<Int> in
            attempts.increment()
            return attempts.value < 3 ? Response(error: TestError(id: attempts.value)) : Response(value: 42)
        }
        #expect(try retried.get() == 42)
        #expect(attempts.value == 3)
    }

    @Test func retryGivesUpWithTheLastFailure() {
        let attempts = Counter()
        let retried = Response.retry(times: 2, delay: .milliseconds(1)) { () -> Response<Int> in
            attempts.increment()
            return Response(error: TestError(id: attempts.value))
        }
        #expect(throws: TestError(id: 3)) { try retried.get() }
        #expect(attempts.value == 3)
    }

    @Test func retryDoesNotRetryCancellation() {
        let attempts = Counter()
        let retried = Response.retry(times: 5) { () -> Response<Int> in
            attempts.increment()
            return Response(error: CancellationError())
        }
        #expect(retried.error is CancellationError)
        #expect(attempts.value == 1)
    }

    @Test func cancellingARetryCancelsTheAttemptAndStopsRetrying() {
        let attempts = Recorder<Response<Int>>()
        let resolvers = Recorder<Resolver<Int>>()
        let retried = Response.retry(times: 5, delay: .milliseconds(1)) { () -> Response<Int> in
            let (attempt, resolver) = Response<Int>.makePending()
            attempts.record(attempt)
            resolvers.record(resolver)
            return attempt
        }
        retried.cancel()
        #expect(attempts.count == 1)
        #expect(attempts.elements.first?.isCancelled == true)
    }
}

@Suite(.onThreadsOfTheirOwn) struct ResponseRetryDepthTests {
    @Test func thousandsOfAttemptsThatFailAtOnceDoNotGrowTheStack() {
        let attempts = Counter()
        let outcome = finishing {
            try Response<Int>.retry(times: 20_000) {
                attempts.increment()
                return Response(error: TestError(id: 3))
            }
            .get()
        }
        #expect(throws: TestError(id: 3)) { try outcome?.get() }
        #expect(attempts.value == 20_001)
    }
}

@Suite(.onThreadsOfTheirOwn) struct ResponseTimeoutReleaseTests {
    @Test func aHandlerThatHearsTheTimeoutFindsTheAbandonedWorkCancelled() {
        let (slow, resolver) = Response<Int>.makePending()
        let upstreamCancelledFirst = Recorder<Bool>()
        let heard = DispatchSemaphore(value: 0)
        slow.timeout(after: .milliseconds(10)).onFailure(on: .immediate) { _ in
            upstreamCancelledFirst.record(slow.isCancelled)
            heard.signal()
        }
        #expect(heard.wait(timeout: .now() + 10) == .success)
        #expect(upstreamCancelledFirst.elements == [true])
        withExtendedLifetime(resolver) {}
    }
}

extension GlobalPoolSaturatingTests {
    @Suite struct ResponseTimingSaturationTests {
        @Test func aTimedOutResponsesHandlerOnASerialQueueRunsWhileTheGlobalPoolIsSaturated() {
            let pool = SaturatedPool()
            let (response, resolver) = Response<Int>.makePending()
            let heard = Gate()
            response.timeout(after: .milliseconds(50)).onFailure(on: DispatchQueue(label: "handlers")) { _ in
                heard.open()
            }
            #expect(heard.wait(guardSeconds: 20))
            #expect(pool.isStillSaturated)
            pool.release()
            withExtendedLifetime(resolver) {}
        }
    }
}
