import Dispatch
import Interactors
import TestThreads
import Testing

/// A caller blocked on the main queue runs the library's main-queue jobs while it waits. The waits here have a
/// guard deadline: a regression fails them instead of blocking the main queue for good.
///
/// Every test of the process that blocks the main queue is here, serialised: a caller blocked on the main queue
/// runs the library's waiting main-queue jobs in its place, ahead of the app's own blocks, so another test
/// blocking the main queue meanwhile would reorder what the ordering tests check.
@Suite(.serialized, .onThreadsOfTheirOwn) struct ResponseMainQueueBlockingTests {
    @MainActor
    @Test func blockingOnTheMainQueueThatOwesTheWorkRunsItInline() throws {
        #expect(MainCallbackQueue.shared.isCurrent)
        #expect(try Response(on: .main) { 5 }.get() == 5)
    }

    @MainActor
    @Test func blockingOnTheMainQueueRunsTheMainQueueHandlerThatSettlesTheResponse() throws {
        let (response, resolver) = Response<Int>.makePending()
        Response(on: DispatchQueue.global()) { 4 }.onCompletion(on: .main) { value in resolver.succeed(value) }
        #expect(try response.get(timeout: .seconds(10)) == 4)
    }

    @MainActor
    @Test func blockingOnTheMainQueueRunsMainQueueWorkQueuedAfterTheWaitBegan() throws {
        let response = Response(on: DispatchQueue.global()) { 1 }.flatMap { value in Response(on: .main) { value + 1 } }
        #expect(try response.get(timeout: .seconds(10)) == 2)
    }

    @MainActor
    @Test func mainQueueJobsRunInTheOrderTheyWereScheduled() throws {
        let order = Recorder<Int>()
        let (response, resolver) = Response<Int>.makePending()
        Response(on: DispatchQueue.global()) { 0 }
            .onCompletion(on: .main) { _ in order.record(1) }
            .onCompletion(on: .main) { _ in order.record(2) }
            .onCompletion(on: .main) { value in resolver.succeed(value) }
        _ = try response.get(timeout: .seconds(10))
        #expect(order.elements == [1, 2])
    }

    @MainActor
    @Test func libraryJobsScheduledAfterABlockedWaitDoNotOvertakeTheAppsEarlierMainQueueBlocks() async {
        let order = Recorder<String>()
        await withCheckedContinuation { continuation in
            blockOnMainQueueWork()  // runs the main-queue job in its place; the job's token stays queued
            DispatchQueue.main.async { order.record("X") }  // queued first
            Response(value: 2).onCompletion(on: .main) { _ in order.record("B") }  // queued second
            DispatchQueue.main.async { continuation.resume() }
        }
        #expect(order.elements == ["X", "B"])
    }

    @MainActor
    @Test func aQueueSeenToTargetTheMainQueueRunsItsWorkInPlaceOfACallerOnTheMainQueue() async throws {
        let ui = DispatchQueue(label: uniqueLabel("ui"), target: .main)
        // Its first job, run by the main queue, shows the library where the queue runs.
        _ = try await Response(on: ui) { 0 }.value
        // The main queue is blocked: the work can only run in the blocked caller's place.
        let ranOnTheMainQueue = try blockOnTheMainQueue(for: Response(on: ui) { DispatchQueue.main.isCurrent })
        #expect(ranOnTheMainQueue)
    }

    /// Many blocked waits begin and end at once, on the main queue and on other threads (each registers with the
    /// list of blocked callers, then leaves it), while other threads schedule main-queue work and move `flatMap`s
    /// on (each wakes every registered caller): the list is read and changed at once, thousands of times. Run
    /// under ThreadSanitizer, it must report nothing.
    @MainActor
    @Test func manyBlockingWaitsWhileOtherThreadsWakeThem() throws {
        let schedulers = (0..<3).map { _ in
            TestThread {
                for round in 0..<1_500 {
                    Response(value: round).onCompletion(on: .main) { _ in }
                    _ = Response(value: round).flatMap { Response(value: $0) }
                }
            }
        }
        let waiters = (0..<6).map { waiter in
            TestThread {
                for round in 0..<300 {
                    // Composed: a caller blocked on it registers with the list, whatever its thread.
                    let composed = Response(on: DispatchQueue.global()) { round }.map { $0 + waiter }
                    _ = try? composed.get(timeout: .seconds(10))
                }
            }
        }
        for round in 0..<300 {
            let (response, resolver) = Response<Int>.makePending()
            Response(on: DispatchQueue.global()) { round }.onCompletion(on: .main) { resolver.succeed($0) }
            #expect(try response.get(timeout: .seconds(10)) == round)
        }
        for thread in schedulers + waiters { thread.join() }
    }
}

/// Blocks the main queue on work queued to the main queue, which the blocked caller runs itself.
@MainActor
private func blockOnMainQueueWork() {
    _ = try? Response(on: .main) { 1 }.get(timeout: .seconds(10))
}

/// Blocks the main queue on `response`, with a guard deadline.
@MainActor
private func blockOnTheMainQueue<Value>(for response: Response<Value>) throws -> Value {
    try response.get(timeout: .seconds(10))
}
