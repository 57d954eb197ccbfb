import Interactors
import InteractorsPresentation
import InteractorsTestKit
import Observation
import TestThreads
import Testing

/// A state the store cannot compare: every update is a change.
private struct Opaque: Sendable {
    var value = 0
}

/// Sets the state through code that knows nothing of `Equatable`, as a presenter or a generic helper does.
private func set<State: Sendable>(_ store: Store<State>, to value: State) {
    store.update { $0 = value }
}

@Suite(.onThreadsOfTheirOwn) struct StoreEqualStateTests {
    @Test func anUpdateThatLeavesAnEquatableStateEqualTellsNoObserver() {
        let store = Store(1, queue: .immediate)
        let heard = Recorder<Int>()
        let observation = store.observe { heard.record($0) }
        store.update { $0 = 1 }
        store.update { $0 += 0 }
        store.update { $0 = 2 }
        #expect(heard.elements == [1, 2])
        observation.cancel()
    }

    @Test func anUpdateThatLeavesTheStateEqualSchedulesNoJobOnTheObserversQueue() {
        let queue = ManualCallbackQueue()
        let store = Store(1, queue: queue)
        let observation = store.observe { _ in }
        queue.runAll()
        let hops = queue.scheduledJobs
        store.update { $0 = 1 }
        #expect(queue.scheduledJobs == hops)
        observation.cancel()
    }

    @Test func anUpdateThatLeavesTheStateEqualYieldsNoStatesElement() async throws {
        let store = Store(1, queue: .immediate)
        var states = store.states.makeAsyncIterator()
        store.update { $0 = 1 }
        store.update { $0 = 2 }
        #expect(try await states.next() == 1)
        #expect(try await states.next() == 2)
    }

    @Test func anUpdateThatLeavesTheStateEqualFiresNoObservationOnChange() {
        let store = Store(1, queue: .immediate)
        let fired = Recorder<Int>()
        _ = withObservationTracking {
            store.state
        } onChange: {
            fired.record(1)
        }
        store.update { $0 = 1 }
        #expect(fired.elements.isEmpty)
        store.update { $0 = 2 }
        #expect(fired.elements == [1])
    }

    @Test func anUpdateMadeByGenericCodeIsSkippedToo() {
        let store = Store("same", queue: .immediate)
        let heard = Recorder<String>()
        let observation = store.observe { heard.record($0) }
        set(store, to: "same")
        set(store, to: "other")
        #expect(heard.elements == ["same", "other"])
        observation.cancel()
    }

    @Test func aPresentersTranslationThatLeavesTheStateEqualIsSkipped() {
        let store = Store(Log(), queue: .immediate)
        let presenter = Presenter(store: store, translator: IgnoringTranslator(), queue: .immediate)
        let heard = Recorder<Log>()
        let observation = store.observe { heard.record($0) }
        presenter.dispatch("ignored")
        presenter.dispatch("kept")
        #expect(heard.elements == [Log(), Log(entries: ["kept"])])
        observation.cancel()
    }

    @Test func aStateThatIsNotEquatableIsToldEveryUpdate() {
        let store = Store(Opaque(), queue: .immediate)
        let heard = Recorder<Int>()
        let observation = store.observe { heard.record($0.value) }
        store.update { $0.value = 0 }
        #expect(heard.elements == [0, 0])
        observation.cancel()
    }
}

/// Logs every action except "ignored", for which it leaves the state as it was.
private struct IgnoringTranslator: Translator {
    func translate(_ action: String, state: inout Log) {
        if action != "ignored" { state.entries.append(action) }
    }
}
