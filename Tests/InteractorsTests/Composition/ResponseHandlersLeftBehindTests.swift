import Dispatch
import TestThreads
import Testing

@testable import Interactors

/// A consumer that has its answer, or gave up, before it added its stage to a pending shared input adds nothing
/// there, and is freed: thousands of them leave the shared input as they found it.
@Suite(.onThreadsOfTheirOwn) struct ResponseHandlersLeftBehindTests {
    private static let count = 1_000

    @Test func racesDecidedByAnEarlierInputAddNothingToALaterPendingInput() throws {
        let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = shared.map { $0 }  // keeps the shared input needed throughout
        var combined: [WeakResponse<Int>] = []
        for index in 0..<Self.count {
            let race = Response.race([Response(value: index, callbackQueue: .immediate), shared])
            #expect(try race.get() == index)
            combined.append(WeakResponse(race))
        }
        #expect(shared.pendingHandlerCount == 1)
        #expect(combined.allSatisfy { $0.response == nil })
        resolver.succeed(0)
        withExtendedLifetime(keeper) {}
    }

    @Test func allsFailedByAnEarlierInputAddNothingToALaterPendingInput() {
        let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = shared.map { $0 }
        var combined: [WeakResponse<[Int]>] = []
        for index in 0..<Self.count {
            let all = Response.all([Response(error: TestError(id: index), callbackQueue: .immediate), shared])
            #expect(throws: TestError(id: index)) { try all.get() }
            combined.append(WeakResponse(all))
        }
        #expect(shared.pendingHandlerCount == 1)
        #expect(combined.allSatisfy { $0.response == nil })
        resolver.succeed(0)
        withExtendedLifetime(keeper) {}
    }

    @Test func anysWonByAnEarlierInputAddNothingToALaterPendingInput() throws {
        let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = shared.map { $0 }
        var combined: [WeakResponse<Int>] = []
        for index in 0..<Self.count {
            let any = Response.any([Response(value: index, callbackQueue: .immediate), shared])
            #expect(try any.get() == index)
            combined.append(WeakResponse(any))
        }
        #expect(shared.pendingHandlerCount == 1)
        #expect(combined.allSatisfy { $0.response == nil })
        resolver.succeed(0)
        withExtendedLifetime(keeper) {}
    }

    @Test func awaitingFromAnAlreadyCancelledTaskAddsNothingToAPendingResponse() async {
        let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = shared.map { $0 }
        for _ in 0..<Self.count {
            let stoppedAtOnce = await Task { () -> Bool in
                withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it awaits
                do {
                    _ = try await shared.value
                    return false
                } catch {
                    return error is CancellationError
                }
            }.value
            #expect(stoppedAtOnce)
        }
        #expect(shared.pendingHandlerCount == 1)
        #expect(!shared.isDone)
        resolver.succeed(0)
        withExtendedLifetime(keeper) {}
    }

    @Test func aFlatMapCancelledWhileItsTransformRanAddsNothingToTheResponseItReturned() {
        let (next, nextResolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = next.map { $0 }
        var derived: [WeakResponse<Int>] = []
        for _ in 0..<Self.count {
            let (upstream, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
            let flat = Box<Response<Int>?>(nil)
            // An earlier handler of the upstream cancels the flatMap before its stage runs the transform.
            upstream.onCompletion(on: .immediate) { _ in flat.value?.cancel() }
            flat.value = upstream.flatMap(callbackQueue: .immediate) { _ in next }
            resolver.succeed(1)
            #expect(flat.value?.isCancelled == true)
            derived.append(WeakResponse(flat.value!))
            flat.value = nil
        }
        #expect(next.pendingHandlerCount == 1)
        #expect(derived.allSatisfy { $0.response == nil })
        nextResolver.succeed(0)
        withExtendedLifetime(keeper) {}
    }

    @Test func aFlatRecoverCancelledWhileItsRecoveryRanAddsNothingToTheResponseItReturned() {
        let (next, nextResolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let keeper = next.map { $0 }
        for _ in 0..<Self.count {
            let (upstream, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
            let flat = Box<Response<Int>?>(nil)
            upstream.onFailure(on: .immediate) { _ in flat.value?.cancel() }
            flat.value = upstream.flatRecover(callbackQueue: .immediate) { _ in next }
            resolver.fail(TestError(id: 1))
            #expect(flat.value?.isCancelled == true)
            flat.value = nil
        }
        #expect(next.pendingHandlerCount == 1)
        nextResolver.succeed(0)
        withExtendedLifetime(keeper) {}
    }
}

/// A response held weakly, to tell whether it was freed.
private final class WeakResponse<Value: Sendable> {
    weak var response: Response<Value>?

    init(_ response: Response<Value>) { self.response = response }
}
