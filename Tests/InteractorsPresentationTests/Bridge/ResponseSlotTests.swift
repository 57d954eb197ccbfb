import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseSlotTests {
    @Test func replacingCancelsThePendingResponseHeldAndReturnsTheNewOne() {
        let slot = ResponseSlot<Int>()
        let (first, firstResolver) = Response<Int>.makePending()
        let (second, secondResolver) = Response<Int>.makePending()
        #expect(slot.replace(with: first) === first)
        #expect(slot.replace(with: second) === second)
        #expect(first.isCancelled)
        #expect(!second.isDone)
        withExtendedLifetime((firstResolver, secondResolver)) {}
    }

    @Test func aSettledResponseIsLeftAlone() throws {
        let slot = ResponseSlot<Int>()
        let settled = Response(value: 1)
        slot.replace(with: settled)
        slot.replace(with: Response(value: 2))
        #expect(!settled.isCancelled)
        #expect(try settled.get() == 1)
    }

    @Test func replacingWithTheResponseHeldChangesNothing() {
        let slot = ResponseSlot<Int>()
        let (response, resolver) = Response<Int>.makePending()
        slot.replace(with: response)
        slot.replace(with: response)
        #expect(!response.isDone)
        withExtendedLifetime(resolver) {}
    }

    @Test func cancelCancelsThePendingResponseAndEmptiesTheSlot() {
        let slot = ResponseSlot<Int>()
        let (response, resolver) = Response<Int>.makePending()
        slot.replace(with: response)
        slot.cancel()
        #expect(response.isCancelled)
        let (next, nextResolver) = Response<Int>.makePending()
        slot.replace(with: next)
        #expect(!next.isDone)
        withExtendedLifetime((resolver, nextResolver)) {}
    }

    @Test func aSearchPerKeystrokeShowsOnlyTheLastSearchAndNoCancellation() {
        let search = InteractorSpy<String, [String]>()
        let presenter = Presenter(
            store: Store(SearchScreen.idle, queue: .immediate),
            translator: SearchTranslator(),
            queue: .immediate
        )
        let interactor = SearchInteractor(search: search, dispatcher: presenter.asDispatcher())
        let states = StoreRecorder(presenter.store)
        for text in ["s", "sw", "swi", "swift"] { interactor.search(text) }
        search.settleNext(with: ["Swift in Depth"])
        #expect(search.cancelledCount == 3)
        #expect(states.states == [.idle, .searching, .results(["Swift in Depth"])])
    }

    @Test func whenManyThreadsReplaceAtOnceAllButTheLastAreCancelledOnce() {
        let slot = ResponseSlot<Int>()
        let cancellations = Recorder<Int>()
        let pending = (0..<400).map { index in
            let (response, resolver) = Response<Int>.makePending()
            resolver.onCancel { cancellations.record(index) }
            return (response, resolver)
        }
        onThreads(4) { thread in
            for index in stride(from: thread, to: 400, by: 4) { slot.replace(with: pending[index].0) }
        }
        let cancelled = cancellations.elements
        #expect(cancelled.count == 399)
        #expect(Set(cancelled).count == 399)
        #expect(pending.filter { !$0.0.isDone }.count == 1)
    }
}

private enum SearchScreen: Sendable, Equatable {
    case idle
    case searching
    case results([String])
    case failed(String)
}

private enum SearchAction: Sendable {
    case searching
    case results(Result<[String], any Error>)
}

private struct SearchTranslator: Translator {
    func translate(_ action: SearchAction, state: inout SearchScreen) {
        switch action {
        case .searching: state = .searching
        case .results(.success(let titles)): state = .results(titles)
        case .results(.failure(let error)): state = .failed("\(error)")
        }
    }
}

private struct SearchInteractor {
    let search: InteractorSpy<String, [String]>
    let dispatcher: AnyDispatcher<SearchAction>
    let latest = ResponseSlot<[String]>()

    @discardableResult
    func search(_ text: String) -> Response<[String]> {
        latest.replace(with: search.execute(text)).dispatch(to: dispatcher, loading: .searching) { .results($0) }
    }
}
