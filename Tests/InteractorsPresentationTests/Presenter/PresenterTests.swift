import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

/// What the ordering test's translator builds: how many actions it saw, and how many arrived out of order.
private struct Tally: Sendable {
    var total = 0
    var lastIndex = [-1, -1, -1]
    var outOfOrder = 0
}

private struct Numbered: Sendable {
    let sender: Int
    let index: Int
}

/// Checks per-sender order, and counts how many translations run at once.
private struct TallyTranslator: Translator {
    let overlap = Overlap()

    func translate(_ action: Numbered, state: inout Tally) {
        overlap.enter()
        defer { overlap.leave() }
        if action.index != state.lastIndex[action.sender] + 1 { state.outOfOrder += 1 }
        state.lastIndex[action.sender] = action.index
        state.total += 1
    }
}

@Suite(.onThreadsOfTheirOwn) struct PresenterTests {
    enum QueueKind: String, CaseIterable, Sendable {
        case immediate, serial, concurrent

        func make() -> any CallbackQueue {
            switch self {
            case .immediate: ImmediateCallbackQueue.shared
            case .serial: DispatchQueue(label: "presenter")
            case .concurrent: DispatchQueue(label: "presenter", attributes: .concurrent)
            }
        }
    }

    @Test(arguments: QueueKind.allCases)
    func actionsFromThreeThreadsAreTranslatedOneAtATimeInPerSenderOrder(_ kind: QueueKind) {
        let translator = TallyTranslator()
        let store = Store(Tally(), queue: .immediate)
        let presenter = Presenter(store: store, translator: translator, queue: kind.make())
        let done = Gate()
        let observation = store.observe { tally in
            if tally.total == 3_000 { done.open() }
        }
        onThreads(3) { sender in
            let interactor = presenter.asDispatcher()
            for index in 0..<1_000 { interactor.dispatch(Numbered(sender: sender, index: index)) }
        }
        #expect(done.wait())
        #expect(store.state.total == 3_000)
        #expect(store.state.outOfOrder == 0)
        #expect(store.state.lastIndex == [999, 999, 999])
        #expect(translator.overlap.most == 1)
        observation.cancel()
    }

    @Test func actionsAreTranslatedFirstInFirstOutOnAQueueThatPromisesNoOrder() {
        let store = Store(Log(), queue: .immediate)
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let presenter = Presenter(store: store, translator: LogTranslator<Int>(), queue: queue)
        let done = Gate()
        let observation = store.observe { log in
            if log.entries.count == 500 { done.open() }
        }
        for number in 0..<500 { presenter.dispatch(number) }
        #expect(done.wait())
        #expect(store.state.entries == (0..<500).map(String.init))
        observation.cancel()
    }

    @Test func translationsRunOnThePresentersQueue() {
        let queue = ManualCallbackQueue()
        let store = Store(Log(), queue: .immediate)
        let presenter = Presenter(store: store, translator: LogTranslator<String>(), queue: queue)
        presenter.dispatch("a")
        presenter.dispatch("b")
        #expect(store.state.entries.isEmpty)
        #expect(queue.pendingJobs == 1)  // one drain for both
        queue.runAll()
        #expect(store.state.entries == ["a", "b"])
    }

    @Test func actionDispatchedDuringATranslationWaitsItsTurn() {
        let events = Recorder<String>()
        let follow = LockedBox<AnyDispatcher<String>?>(nil)
        let translator = FollowUpTranslator(events: events, follow: follow)
        let presenter = Presenter(store: Store(Log(), queue: .immediate), translator: translator, queue: .immediate)
        follow.withLock { $0 = presenter.asDispatcher() }
        presenter.dispatch("first")
        #expect(events.elements == ["enter first", "exit first", "enter follow-up", "exit follow-up"])
        #expect(presenter.store.state.entries == ["first", "follow-up"])
        follow.withLock { $0 = nil }  // the translator's dispatcher holds the presenter
    }

    @Test func immediateObserverMayDispatchToThePresenter() {
        let store = Store(Log(), queue: .immediate)
        let presenter = Presenter(store: store, translator: LogTranslator<String>(), queue: .immediate)
        let observation = store.observe { log in
            if log.entries == ["tap"] { presenter.dispatch("reaction") }
        }
        presenter.dispatch("tap")
        #expect(store.state.entries == ["tap", "reaction"])
        observation.cancel()
    }

    @Test func dispatcherKeepsItsPresenterAlive() {
        var presenter: Presenter<LogTranslator<Int>>? = Presenter(
            store: Store(Log(), queue: .immediate),
            translator: LogTranslator<Int>(),
            queue: .immediate
        )
        let weak = WeakBox(presenter!)
        var dispatcher: AnyDispatcher<Int>? = presenter!.asDispatcher()
        presenter = nil
        #expect(weak.object != nil)
        dispatcher?.dispatch(1)
        #expect(weak.object?.store.state.entries == ["1"])
        dispatcher = nil
        #expect(weak.object == nil)
    }
}

/// Records when each translation starts and ends; translating "first" dispatches "follow-up".
private struct FollowUpTranslator: Translator {
    let events: Recorder<String>
    let follow: LockedBox<AnyDispatcher<String>?>

    func translate(_ action: String, state: inout Log) {
        events.record("enter \(action)")
        if action == "first" { follow.withLock { $0 }?.dispatch("follow-up") }
        state.entries.append(action)
        events.record("exit \(action)")
    }
}
