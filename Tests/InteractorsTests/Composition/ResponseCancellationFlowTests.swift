import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseCancellationFlowTests {
    @Test func cancellingADerivedResponseCancelsItsUpstream() {
        let (upstream, resolver) = Response<Int>.makePending()
        let mapped = upstream.map { $0 + 1 }
        mapped.cancel()
        #expect(upstream.isCancelled)
        #expect(resolver.isCancelled)
    }

    @Test func upstreamStillNeededByAnotherDerivedResponseKeepsGoing() throws {
        let (upstream, resolver) = Response<Int>.makePending()
        let first = upstream.map { $0 + 1 }
        let second = upstream.map { $0 + 2 }
        first.cancel()
        #expect(!upstream.isDone)
        resolver.succeed(1)
        #expect(try second.get() == 3)
        #expect(first.isCancelled)
    }

    @Test func upstreamIsCancelledWhenItsLastConsumerLetsGo() {
        let (upstream, resolver) = Response<Int>.makePending()
        let first = upstream.map { $0 }
        let second = upstream.map { $0 }
        first.cancel()
        second.cancel()
        #expect(upstream.isCancelled)
        withExtendedLifetime(resolver) {}
    }

    @Test func handlersDoNotKeepAnUpstreamAlive() {
        let (upstream, resolver) = Response<Int>.makePending()
        upstream.onCompletion(on: .immediate) { _ in }
        upstream.map { $0 }.cancel()
        #expect(upstream.isCancelled)
        withExtendedLifetime(resolver) {}
    }

    @Test func cancellingAFlatMapCancelsTheInnerResponse() {
        let (inner, innerResolver) = Response<Int>.makePending()
        let chained = Response(value: 1).flatMap { _ in inner }
        chained.cancel()
        #expect(inner.isCancelled)
        #expect(innerResolver.isCancelled)
    }

    @Test func cancellingDuringTheFirstStageOfAFlatMapNeverLeavesTheSecondRunning() {
        let (first, firstResolver) = Response<Int>.makePending()
        let secondStarted = Recorder<Response<Int>>()
        let chained = first.flatMap { value -> Response<Int> in
            let second = Response<Int>(value: 2)
            secondStarted.record(second)
            return second
        }
        chained.cancel()
        #expect(first.isCancelled)
        #expect(!firstResolver.succeed(1))
        #expect(secondStarted.elements.isEmpty)
    }

    @Test func cancellingAnAwaitingTaskLeavesAResponseOthersStillNeed() async throws {
        let (upstream, resolver) = Response<Int>.makePending()
        let other = upstream.map { $0 * 2 }
        let waiter = Task { try await upstream.value }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!upstream.isDone)
        resolver.succeed(4)
        #expect(try await other.value == 8)
    }

    @Test func allCancelsTheRestWhenOneFails() {
        let (slow, slowResolver) = Response<Int>.makePending()
        let (failing, failingResolver) = Response<Int>.makePending()
        let combined = Response.all([slow, failing])
        failingResolver.fail(TestError(id: 3))
        #expect(combined.error as? TestError == TestError(id: 3))
        #expect(slow.isCancelled)
        #expect(slowResolver.isCancelled)
    }

    @Test func cancellingACombinationCancelsItsInputs() {
        let (first, firstResolver) = Response<Int>.makePending()
        let (second, secondResolver) = Response<Int>.makePending()
        Response.all([first, second]).cancel()
        #expect(first.isCancelled)
        #expect(second.isCancelled)
        withExtendedLifetime((firstResolver, secondResolver)) {}
    }

    @Test func raceCancelsTheLosers() throws {
        let (loser, loserResolver) = Response<Int>.makePending()
        let (winner, winnerResolver) = Response<Int>.makePending()
        let raced = Response.race([loser, winner])
        winnerResolver.succeed(1)
        #expect(try raced.get() == 1)
        #expect(loser.isCancelled)
        withExtendedLifetime(loserResolver) {}
    }

    @Test func anyCancelsTheRestOnceOneSucceeds() throws {
        let (pending, resolver) = Response<Int>.makePending()
        let combined = Response.any([pending, Response(value: 5)])
        #expect(try combined.get() == 5)
        #expect(pending.isCancelled)
        withExtendedLifetime(resolver) {}
    }

    @Test func timingOutCancelsTheUpstreamWork() {
        let (upstream, resolver) = Response<Int>.makePending()
        let cancelled = Gate()
        resolver.onCancel { cancelled.open() }
        let timed = upstream.timeout(after: .milliseconds(10))
        #expect(timed.error as? ResponseError == .timedOut)
        #expect(cancelled.wait())
        #expect(upstream.isCancelled)
    }
}
