import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

/// Serialised: these tests change a process-wide setting, and restore it.
@Suite(.serialized, .onThreadsOfTheirOwn) struct DefaultCallbackQueueTests {
    @Test func defaultIsTheMainQueue() {
        #expect(DefaultCallbackQueue.current === MainCallbackQueue.shared)
    }

    @Test func handlersWithoutAQueueGoToTheProcessDefault() {
        let queue = ManualCallbackQueue()
        DefaultCallbackQueue.set(queue)
        defer { DefaultCallbackQueue.set(.main) }
        let received = Recorder<Int>()
        Response(value: 1).onCompletion { received.record($0) }
        #expect(received.elements.isEmpty)
        queue.runAll()
        #expect(received.elements == [1])
    }

    @Test func settingTheDefaultToItselfRestoresTheMainQueue() {
        DefaultCallbackQueue.set(.immediate)
        DefaultCallbackQueue.set(.default)
        #expect(DefaultCallbackQueue.current === MainCallbackQueue.shared)
    }

    @Test func defaultCanBeChangedFromManyThreadsAtOnce() {
        defer { DefaultCallbackQueue.set(.main) }
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            if index.isMultiple(of: 2) {
                DefaultCallbackQueue.set(.immediate)
            } else {
                _ = DefaultCallbackQueue.current
            }
        }
        #expect(DefaultCallbackQueue.current === ImmediateCallbackQueue.shared)
    }

    @Test func replacingTheDefaultReleasesTheOldQueueOutsideTheLock() {
        // The old queue's deinit reads the setting: had it run under the setting's lock, this would never return.
        let observed = Recorder<Bool>()
        DefaultCallbackQueue.set(
            DeinitReportingQueue { observed.record(DefaultCallbackQueue.current === MainCallbackQueue.shared) }
        )
        DefaultCallbackQueue.set(.main)
        #expect(observed.elements == [true])
    }

    @Test func handlersOnTheDefaultQueueAndOnTheQueueItStandsForRunInRegistrationOrder() {
        let queue = ManualCallbackQueue()
        DefaultCallbackQueue.set(queue)
        defer { DefaultCallbackQueue.set(.main) }
        let order = Recorder<String>()
        let (response, resolver) = Response<Int>.makePending()
        response.onCompletion { _ in order.record("a") }
        response.onCompletion(on: queue) { _ in order.record("b") }
        response.onCompletion { _ in order.record("c") }
        resolver.succeed(1)
        queue.runAll()
        #expect(order.elements == ["a", "b", "c"])
    }

    @MainActor
    @Test func handlersOnTheDefaultQueueAndOnTheMainQueueRunInRegistrationOrder() async {
        let order = Recorder<String>()
        let (response, resolver) = Response<Int>.makePending()
        response.onCompletion { _ in order.record("a") }
        response.onCompletion(on: .main) { _ in order.record("b") }
        response.onCompletion { _ in order.record("c") }
        await withCheckedContinuation { continuation in
            response.onCompletion(on: .main) { _ in continuation.resume() }
            resolver.succeed(1)
        }
        #expect(order.elements == ["a", "b", "c"])
    }

    @Test func mainQueueHandlersRunWhileTheMainQueueIsServiced() async {
        let response = Response(value: 1)
        let ranOnMain = await withCheckedContinuation { continuation in
            response.onResult { _ in continuation.resume(returning: DispatchQueue.main.isCurrent) }
        }
        #expect(ranOnMain)
    }
}

/// A queue that runs `onDeinit` when it is released.
private final class DeinitReportingQueue: CallbackQueue {
    private let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }

    deinit { onDeinit() }

    func schedule(_ job: @escaping @Sendable () -> Void) { job() }

}

/// A queue that switches the process default to `.immediate` when it is handed a job, and drops the job.
private final class DefaultSwitchingQueue: CallbackQueue {
    func schedule(_ job: @escaping @Sendable () -> Void) {
        DefaultCallbackQueue.set(.immediate)
    }
}

extension DefaultCallbackQueueTests {
    @Test func aTimedOutHandlerOnDefaultGoesWhereDefaultStoodWhenTheTimerThreadHandedItOut() {
        let chosen = ManualCallbackQueue()
        DefaultCallbackQueue.set(chosen)
        defer { DefaultCallbackQueue.set(.main) }
        // Handed its job first, it switches the default to `.immediate` before the `.default` handler is handed out.
        let switching = DefaultSwitchingQueue()
        let ran = Recorder<Bool>()
        let (slow, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        let timed = slow.timeout(after: .milliseconds(10), callbackQueue: .immediate)
        timed.onFailure(on: switching) { _ in }
        timed.onFailure(on: .default) { _ in ran.record(true) }
        #expect(eventually { chosen.pendingJobs == 1 })
        #expect(ran.elements.isEmpty)  // not run on the timer thread
        DefaultCallbackQueue.set(.main)
        #expect(chosen.runAll() == 1)
        #expect(ran.elements == [true])
        withExtendedLifetime(resolver) {}
    }
}
