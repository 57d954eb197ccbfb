import Dispatch
import Interactors
import TestThreads
import Testing

/// A lazy factory that waits, through the library, for its own request type on another thread fails that nested
/// call with `InteractorFactoryCycleError` instead of hanging; the outer call still gets its interactor. Each
/// scenario runs under a guard, so a regression fails instead of hanging the run.
@Suite(.onThreadsOfTheirOwn) struct InteractorFactoryCycleTests {
    @Test func aFactoryThatWaitsForItsOwnRequestTypeOnAnotherThreadFailsTheNestedCall() throws {
        let executor = InteractorExecutor()
        let other = DispatchQueue(label: "other")
        let nested = Box<Result<Int, any Error>?>(nil)
        executor.register(DoubleRequest.self) {
            nested.value = Result { try executor.execute(DoubleRequest(number: 1), on: other).get() }
            return AnyInteractor<DoubleRequest, Int> { Response(value: $0.number * 2) }
        }
        let outer = try #require(finishing(guardSeconds: 30) { try executor.execute(DoubleRequest(number: 4)).get() })
        #expect(try outer.get() == 8)
        #expect(throws: InteractorFactoryCycleError.self) { try nested.value?.get() }
    }

    @Test func theCycleIsFoundThroughAThreadThatTheWorkWaitsOn() throws {
        let executor = InteractorExecutor()
        let (first, second) = (DispatchQueue(label: "first"), DispatchQueue(label: "second"))
        let nested = Box<Result<Int, any Error>?>(nil)
        executor.register(DoubleRequest.self) {
            // The build waits for work on `first`, which waits for work on `second`, which needs the build.
            nested.value = Result {
                try Response(on: first) { try executor.execute(DoubleRequest(number: 1), on: second).get() }.get()
            }
            return DoubleInteractor()
        }
        let outer = try #require(finishing(guardSeconds: 30) { try executor.execute(DoubleRequest(number: 5)).get() })
        #expect(try outer.get() == 10)
        #expect(throws: InteractorFactoryCycleError.self) { try nested.value?.get() }
    }

    @Test func aThreadTheBuildDoesNotWaitForWaitsForTheInteractor() throws {
        let executor = InteractorExecutor()
        let building = Gate()
        let finishBuild = Gate()
        executor.register(DoubleRequest.self) {
            building.open()
            // The build blocks through the library, on work that needs nothing from the other caller.
            _ = try? Response(on: DispatchQueue.global()) { finishBuild.wait(guardSeconds: 30) }.get()
            return DoubleInteractor()
        }
        let builder = finishingLater { try executor.execute(DoubleRequest(number: 1)).get() }
        #expect(building.wait())
        let waiter = finishingLater { try executor.execute(DoubleRequest(number: 2), on: DispatchQueue.global()).get() }
        finishBuild.open()
        #expect(try builder.wait()?.get() == 2)
        #expect(try waiter.wait()?.get() == 4)
    }
}

/// A result another thread delivers later.
private struct LaterResult<T: Sendable>: Sendable {
    let done: Gate
    let outcome: Box<Result<T, any Error>?>

    /// The outcome, or `nil` (and a failed test) if it did not come within the guard.
    func wait() -> Result<T, any Error>? {
        guard done.wait(guardSeconds: 30) else {
            Issue.record("the call did not return")
            return nil
        }
        return outcome.value
    }
}

/// Runs `body` on a global-queue thread and returns at once.
private func finishingLater<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> LaterResult<T> {
    let later = LaterResult<T>(done: Gate(), outcome: Box(nil))
    DispatchQueue.global().async {
        later.outcome.value = Result { try body() }
        later.done.open()
    }
    return later
}
