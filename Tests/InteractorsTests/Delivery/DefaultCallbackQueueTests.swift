import Dispatch
import Interactors
import InteractorsTestKit
import Testing

/// Serialised: these tests change a process-wide setting, and restore it.
@Suite(.serialized) struct DefaultCallbackQueueTests {
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

    @Test func mainQueueHandlersRunWhileTheMainQueueIsServiced() async {
        let response = Response(value: 1)
        let ranOnMain = await withCheckedContinuation { continuation in
            response.onResult { _ in continuation.resume(returning: DispatchQueue.main.isCurrent) }
        }
        #expect(ranOnMain)
    }
}
