import Interactors
import InteractorsPresentation
import TestThreads
import Testing

/// A dispatcher that records what it is sent.
private final class RecordingDispatcher<Action: Sendable>: Dispatcher {
    let sent = Recorder<Action>()

    func dispatch(_ action: Action) {
        sent.record(action)
    }
}

@Suite(.onThreadsOfTheirOwn) struct AnyDispatcherTests {
    @Test func forwardsEachActionToTheWrappedDispatcher() {
        let wrapped = RecordingDispatcher<Int>()
        let dispatcher = AnyDispatcher(wrapped)
        dispatcher.dispatch(1)
        dispatcher.dispatch(2)
        #expect(wrapped.sent.elements == [1, 2])
    }

    @Test func closureDispatcherRunsOnTheDispatchingThread() {
        let threads = Recorder<UInt>()
        let dispatcher = AnyDispatcher<Int> { _ in threads.record(currentThreadID()) }
        dispatcher.dispatch(1)
        #expect(threads.elements == [currentThreadID()])
    }

    @Test func wrappingAnAnyDispatcherAgainForwardsOnce() {
        let wrapped = RecordingDispatcher<Int>()
        let twice = AnyDispatcher(AnyDispatcher(wrapped))
        twice.dispatch(7)
        #expect(wrapped.sent.elements == [7])
    }

    @Test func mapTurnsAnotherUseCasesActionsIntoThisOnes() {
        let wrapped = RecordingDispatcher<String>()
        let counts: AnyDispatcher<Int> = AnyDispatcher(wrapped).map { "count \($0)" }
        counts.dispatch(3)
        #expect(wrapped.sent.elements == ["count 3"])
    }

    @Test func mapsCompose() {
        let wrapped = RecordingDispatcher<String>()
        let flags: AnyDispatcher<Bool> = AnyDispatcher(wrapped).map { (number: Int) in "n\(number)" }.map { $0 ? 1 : 0 }
        flags.dispatch(true)
        flags.dispatch(false)
        #expect(wrapped.sent.elements == ["n1", "n0"])
    }
}
