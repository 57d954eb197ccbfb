import Dispatch
import Interactors
import TestThreads
import Testing

/// A consumer that lets go of a long-lived upstream takes its stage back out, with everything it captured.
@Suite(.onThreadsOfTheirOwn) struct ResponseConsumerReleaseTests {
    @Test func cancelledMapsReleaseTheirStagesFromASharedPendingUpstream() {
        let (shared, resolver) = Response<Int>.makePending()
        let keeper = shared.map { $0 }  // keeps the shared response needed
        var released: [Weak<Tracked>] = []
        var derived: [Weak<Response<Tracked>>] = []
        for _ in 0..<1_000 {
            let tracked = Tracked()
            released.append(Weak(tracked))
            let mapped = shared.map { _ in tracked }
            derived.append(Weak(mapped))
            mapped.cancel()
        }
        #expect(released.allSatisfy { $0.object == nil })
        #expect(derived.allSatisfy { $0.object == nil })
        #expect(!shared.isDone)
        resolver.succeed(1)
        withExtendedLifetime(keeper) {}
    }

    @Test func timedOutDerivedResponsesReleaseTheirStages() throws {
        let (shared, resolver) = Response<Int>.makePending()
        let keeper = shared.map { $0 }
        var timedOut: [Weak<Response<Int>>] = []
        for _ in 0..<20 {
            let derived = shared.timeout(after: .milliseconds(1))
            #expect(throws: ResponseError.timedOut) { try derived.get(timeout: .seconds(10)) }
            timedOut.append(Weak(derived))
        }
        // A timed-out response's delivery is also handed to a global queue, whose job holds it until it runs.
        #expect(eventually { timedOut.allSatisfy { $0.object == nil } })
        resolver.succeed(1)
        withExtendedLifetime(keeper) {}
    }

    @Test func raceLosersGiveUpTheirStagesOnceTheRaceIsDecided() {
        let (loser, resolver) = Response<Int>.makePending()
        let keeper = loser.map { $0 }
        var races: [Weak<Response<Int>>] = []
        for value in 0..<1_000 {
            let race = Response.race([loser, Response(value: value)], callbackQueue: .immediate)
            races.append(Weak(race))
        }
        #expect(races.allSatisfy { $0.object == nil })
        #expect(!loser.isDone)
        resolver.succeed(1)
        withExtendedLifetime(keeper) {}
    }

    @Test func cancelledAwaitingTasksLeaveTheResponsePendingForItsOtherConsumers() async throws {
        let (shared, resolver) = Response<Int>.makePending()
        let keeper = shared.map { $0 }
        for _ in 0..<100 {
            let task = Task { try await shared.value }
            task.cancel()
            _ = await task.result
        }
        #expect(!shared.isDone)
        resolver.succeed(2)
        #expect(try await keeper.value == 2)
    }
}

/// A weak reference, to check that something was freed.
struct Weak<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) { self.object = object }
}
