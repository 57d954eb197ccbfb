import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResolverTests {
    @Test func onlyTheFirstResolutionSettles() throws {
        let (response, resolver) = Response<Int>.makePending()
        #expect(resolver.succeed(1))
        #expect(!resolver.succeed(2))
        #expect(!resolver.fail(TestError()))
        #expect(!resolver.resolve(.success(3)))
        #expect(try response.get() == 1)
    }

    @Test func resolveAcceptsATypedResult() throws {
        let (response, resolver) = Response<Int>.makePending()
        let typed: Result<Int, TestError> = .failure(TestError(id: 4))
        #expect(resolver.resolve(typed))
        #expect(throws: TestError(id: 4)) { try response.get() }
    }

    @Test func droppedResolverAbandonsTheResponse() {
        var pending: (response: Response<Int>, resolver: Resolver<Int>)? = Response<Int>.makePending()
        let response = pending!.response
        pending = nil
        #expect(response.error as? ResponseError == .abandoned)
    }

    @Test func bodyThatKeepsNoResolverAbandonsTheResponseAtOnce() {
        let response = Response<Int> { _ in }
        #expect(response.isFailed)
        #expect(response.error as? ResponseError == .abandoned)
    }

    @Test func resolverReleasedOnAnotherThreadWakesABlockedCaller() {
        let (response, holder) = ResolverHolder.makePending()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { holder.drop() }
        #expect(throws: ResponseError.abandoned) { try response.get(timeout: .seconds(10)) }
    }

    @Test func settledResolverReleasedLaterChangesNothing() throws {
        var pending: (response: Response<Int>, resolver: Resolver<Int>)? = Response<Int>.makePending()
        let response = pending!.response
        pending!.resolver.succeed(1)
        pending = nil
        #expect(try response.get() == 1)
    }

    @Test func cancelHandlerRunsWhenTheResponseIsCancelled() {
        let (response, resolver) = Response<Int>.makePending()
        let cancelled = Counter()
        resolver.onCancel { cancelled.increment() }
        #expect(!resolver.isCancelled)
        response.cancel()
        #expect(resolver.isCancelled)
        #expect(cancelled.value == 1)
    }

    @Test func cancelHandlerAddedAfterCancellationRunsAtOnce() {
        let (response, resolver) = Response<Int>.makePending()
        response.cancel()
        let cancelled = Counter()
        resolver.onCancel { cancelled.increment() }
        #expect(cancelled.value == 1)
    }

    @Test func cancelHandlerDoesNotRunWhenTheResponseSucceeds() {
        let (response, resolver) = Response<Int>.makePending()
        let cancelled = Counter()
        resolver.onCancel { cancelled.increment() }
        resolver.succeed(1)
        response.cancel()
        resolver.onCancel { cancelled.increment() }
        #expect(cancelled.value == 0)
        #expect(!response.isCancelled)
    }

    @Test func cancelHandlerIsReleasedWhenTheResponseSettles() {
        let (_, resolver) = Response<Int>.makePending()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            resolver.onCancel { _ = tracked }
        }
        #expect(weakTracked != nil)
        resolver.succeed(1)
        #expect(weakTracked == nil)
    }
}

/// Keeps a resolver until told to drop it, from any thread.
private final class ResolverHolder: Sendable {
    private let box: LockedBox<Resolver<Int>?>

    private init(_ resolver: Resolver<Int>) { box = LockedBox(resolver) }

    /// A pending response whose only resolver reference is in the holder.
    static func makePending() -> (Response<Int>, ResolverHolder) {
        let pending = Response<Int>.makePending()
        return (pending.response, ResolverHolder(pending.resolver))
    }

    func drop() {
        let resolver = box.withLock { box in
            defer { box = nil }
            return box
        }
        _ = resolver
    }
}

@Suite(.onThreadsOfTheirOwn) struct ResolverAbandonmentTests {
    @Test func aResolverDroppedUnresolvedDoesNotRunHandlersOnTheDroppingThread() {
        var pending: (response: Response<Int>, resolver: Resolver<Int>)? = Response<Int>.makePending()
        let response = pending!.response
        let ranOn = Recorder<UInt>()
        let ran = DispatchSemaphore(value: 0)
        response.onResult(on: .immediate) { _ in
            ranOn.record(currentThreadID())
            ran.signal()
        }
        let droppingThread = currentThreadID()
        pending = nil  // as if released inside the user's own lock
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(ranOn.elements.count == 1)
        #expect(ranOn.elements.first != droppingThread)
        #expect(response.error as? ResponseError == .abandoned)
    }
}

extension GlobalPoolSaturatingTests {
    @Suite struct ResolverAbandonmentSaturationTests {
        @Test func anAbandonedResponsesHandlerOnASerialQueueRunsWhileTheGlobalPoolIsSaturated() {
            let pool = SaturatedPool()
            var pending: (response: Response<Int>, resolver: Resolver<Int>)? = Response<Int>.makePending()
            let response = pending!.response
            let heard = Gate()
            response.onFailure(on: DispatchQueue(label: "handlers")) { _ in heard.open() }
            pending = nil
            #expect(heard.wait(guardSeconds: 20))
            #expect(pool.isStillSaturated)
            pool.release()
            #expect(response.error as? ResponseError == .abandoned)
        }
    }
}
