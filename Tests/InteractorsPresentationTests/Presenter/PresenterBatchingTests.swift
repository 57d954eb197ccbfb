import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

/// Counts the actions translated; with gates, the first translation opens `started`, then waits for `release`,
/// holding the presenter's job.
private struct CountingTranslator: Translator {
    let translated = LockedBox(0)
    var started: Gate?
    var release: Gate?

    func translate(_ action: Int, state: inout Int) {
        let count = translated.withLock { count in
            count += 1
            return count
        }
        if count == 1, let started, let release {
            started.open()
            release.wait(guardSeconds: 60)
        }
        state = action
    }

    var count: Int { translated.withLock { $0 } }
}

/// A queue of the user's own that runs each job at once, on the scheduling thread.
private final class InlineQueue: CallbackQueue {
    func schedule(_ job: @escaping @Sendable () -> Void) { job() }
}

@Suite(.onThreadsOfTheirOwn) struct PresenterBatchingTests {
    @Test func onAQueueThatRunsJobsLaterOneJobTranslatesAtMost64Actions() {
        let queue = ManualCallbackQueue()
        let store = Store(-1, queue: .immediate)
        let translator = CountingTranslator()
        let presenter = Presenter(store: store, translator: translator, queue: queue)
        for action in 0..<150 { presenter.dispatch(action) }
        #expect(queue.pendingJobs == 1)
        queue.runNext()
        #expect(translator.count == 64)
        #expect(queue.pendingJobs == 1)  // the rest, as a new job behind whatever else waits
        queue.runNext()
        #expect(translator.count == 128)
        queue.runNext()
        #expect(translator.count == 150)
        #expect(queue.pendingJobs == 0)
        #expect(store.state == 149)
    }

    @Test func aJobScheduledBehindABatchRunsBeforeTheNextBatch() {
        let queue = ManualCallbackQueue()
        let log = Recorder<String>()
        let store = Store(Log(), queue: .immediate)
        let presenter = Presenter(store: store, translator: LogTranslator<Int>(), queue: queue)
        for action in 0..<100 { presenter.dispatch(action) }
        queue.schedule { log.record("tap, after \(store.state.entries.count) actions") }
        queue.runAll()
        #expect(log.elements == ["tap, after 64 actions"])
        #expect(store.state.entries == (0..<100).map(String.init))
    }

    @Test func aMainQueuePresenterFloodedFromAnotherThreadLetsAMainQueueJobRunAfterAtMostOneBatch() async {
        // The first translation holds the main queue until the flood has been dispatched and a main-queue job
        // scheduled behind it: the job must then run after the rest of that batch, not after the whole flood.
        let (started, release) = (Gate(), Gate())
        let translator = CountingTranslator(started: started, release: release)
        let store = Store(-1, queue: .immediate)
        let presenter = Presenter(store: store, translator: translator, queue: .main)
        let flood = 10_000
        let translatedWhenTheJobRan = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                presenter.dispatch(0)
                started.wait()  // the first batch is running on the main queue
                for action in 1..<flood { presenter.dispatch(action) }
                MainCallbackQueue.shared.schedule { continuation.resume(returning: translator.count) }
                release.open()
            }
        }
        #expect(translatedWhenTheJobRan <= 64)
        var observation: StoreObservation?
        await withCheckedContinuation { continuation in
            observation = store.observe { if $0 == flood - 1 { continuation.resume() } }
        }
        #expect(translator.count == flood)
        observation?.cancel()
    }

    @Test(arguments: ["immediate", "inline"])
    func whereJobsRunAtOnceTheDispatchingThreadTranslatesEveryActionInALoop(_ kind: String) {
        // 100,000 actions, each dispatched by the translation before it: by recursion, one stack frame per batch
        // of 64, the last translation would run some 1,500 frames deeper than the first.
        let queue: any CallbackQueue = kind == "immediate" ? ImmediateCallbackQueue.shared : InlineQueue()
        let store = Store(0, queue: .immediate)
        let next = LockedBox<AnyDispatcher<Int>?>(nil)
        let depths = Recorder<(thread: UInt, stack: UInt)>()
        let translator = ChainTranslator(next: next, last: 100_000, depths: depths)
        let presenter = Presenter(store: store, translator: translator, queue: queue)
        next.withLock { $0 = presenter.asDispatcher() }
        presenter.dispatch(1)
        #expect(store.state == 100_000)
        let (first, last) = (depths.elements[0], depths.elements[1])
        #expect(first.thread == currentThreadID() && last.thread == currentThreadID())
        #expect(first.stack.distance(to: last.stack).magnitude < 16 * 1024)
        next.withLock { $0 = nil }
    }
}

/// Dispatches the next number until `last`; records the thread and the stack depth of the first and last
/// translations.
private struct ChainTranslator: Translator {
    let next: LockedBox<AnyDispatcher<Int>?>
    let last: Int
    let depths: Recorder<(thread: UInt, stack: UInt)>

    func translate(_ action: Int, state: inout Int) {
        if action == 1 || action == last {
            var marker = 0
            let stack = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            depths.record((currentThreadID(), stack))
        }
        state = action
        if action < last { next.withLock { $0 }?.dispatch(action + 1) }
    }
}
