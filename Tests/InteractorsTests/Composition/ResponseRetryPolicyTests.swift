import TestThreads
import Testing

@testable import Interactors

@Suite(.onThreadsOfTheirOwn) struct ResponseRetryPolicyTests {
    // MARK: Which failures are retried

    @Test func whileIsAskedAboutEachFailureWhileRetriesRemain() {
        let asked = Recorder<Int>()
        let attempts = Counter()
        let retried = Response<Int>.retry(
            times: 2,
            while: { error in
                asked.record((error as? TestError)?.id ?? -1)
                return true
            }
        ) {
            attempts.increment()
            return Response(error: TestError(id: attempts.value))
        }
        #expect(throws: TestError(id: 3)) { try retried.get() }
        #expect(attempts.value == 3)
        #expect(asked.elements == [1, 2])  // not about the last failure: no retry was left
    }

    @Test func aFailureWhileRefusesSettlesWithThatFailure() {
        let attempts = Counter()
        let retried = Response<Int>.retry(times: 5, while: { ($0 as? TestError)?.id != 2 }) {
            attempts.increment()
            return Response(error: TestError(id: attempts.value))
        }
        #expect(throws: TestError(id: 2)) { try retried.get() }
        #expect(attempts.value == 2)
    }

    @Test func aCancellationErrorIsNeverRetriedWhateverWhileSays() {
        let asked = Counter()
        let attempts = Counter()
        let retried = Response<Int>.retry(
            times: 5,
            while: { _ in
                asked.increment()
                return true
            }
        ) {
            attempts.increment()
            return Response(error: CancellationError())
        }
        #expect(retried.error is CancellationError)
        #expect(attempts.value == 1)
        #expect(asked.value == 0)
    }

    @Test func whileIsAskedAboutAFailureThatComesLater() throws {
        let (first, resolver) = Response<Int>.makePending()
        let attempts = Counter()
        let retried = Response<Int>.retry(times: 3, while: { ($0 as? TestError)?.id == 1 }) {
            attempts.increment()
            return attempts.value == 1 ? first : Response(error: TestError(id: 2))
        }
        resolver.fail(TestError(id: 1))
        #expect(throws: TestError(id: 2)) { try retried.get() }
        #expect(attempts.value == 2)
    }

    // MARK: Waits

    @Test func theDefaultsWaitTheDelayEveryTime() {
        let policy = Self.policy(delay: .milliseconds(200))
        #expect((1...5).map(policy.wait(beforeRetry:)) == Array(repeating: .milliseconds(200), count: 5))
    }

    @Test func backoffMultipliesTheWaitUntilMaxDelayCapsIt() {
        let policy = Self.policy(delay: .milliseconds(100), backoff: 3, maxDelay: .seconds(2))
        #expect((1...5).map(policy.wait(beforeRetry:)) == [100, 300, 900, 2000, 2000].map(Duration.milliseconds))
    }

    @Test func aWaitThatWouldOverflowStopsAtTheLongestWait() {
        let uncapped = Self.policy(delay: .seconds(1), backoff: 2)
        #expect(uncapped.wait(beforeRetry: 10_000) == RetryPolicy.longestWait)
        let capped = Self.policy(delay: .seconds(1), backoff: .infinity, maxDelay: .seconds(30))
        #expect(capped.wait(beforeRetry: 2) == .seconds(30))
        #expect(Self.policy(delay: .zero, backoff: .infinity).wait(beforeRetry: 3) == .zero)
    }

    @Test func jitterMultipliesEachWaitByAFreshFactorWithinItsBounds() {
        let policy = Self.policy(delay: .seconds(1), backoff: 2, maxDelay: .seconds(4), jitter: 0.5)
        for retry in 1...5 {
            let base = [1, 2, 4, 4, 4].map(Duration.seconds)[retry - 1]
            let waits = (0..<100).map { _ in policy.wait(beforeRetry: retry) }
            #expect(waits.allSatisfy { $0 >= base * 0.5 && $0 <= base * 1.5 })
            #expect(Set(waits).count > 1)
        }
    }

    // MARK: Misuse

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func jitterAboveOneStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Response<Int>.retry(times: 1, jitter: 1.5) { Response(value: 1) }
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("Response.retry: jitter is 1.5; it must be in 0...1"))
    }

    @Test func negativeJitterStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Response<Int>.retry(times: 1, jitter: -0.1) { Response(value: 1) }
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("Response.retry: jitter is -0.1; it must be in 0...1"))
    }

    @Test func backoffBelowOneStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Response<Int>.retry(times: 1, backoff: 0.5) { Response(value: 1) }
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("Response.retry: backoff is 0.5; it must be 1 or more"))
    }
    #endif

    private static func policy(
        delay: Duration,
        backoff: Double = 1,
        maxDelay: Duration? = nil,
        jitter: Double = 0
    ) -> RetryPolicy {
        RetryPolicy(
            times: 5,
            delay: delay,
            backoff: backoff,
            maxDelay: maxDelay,
            jitter: jitter,
            clock: nil,
            shouldRetry: { _ in true }
        )
    }
}
