import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

private enum BooksScreen: Sendable, Equatable {
    case idle
    case loading
    case loaded([String])
    case failed
}

private enum BooksAction: Sendable {
    case loading
    case loaded(Result<[String], any Error>)
}

private struct BooksTranslator: Translator {
    func translate(_ action: BooksAction, state: inout BooksScreen) {
        switch action {
        case .loading: state = .loading
        case .loaded(.success(let books)): state = .loaded(books)
        case .loaded(.failure): state = .failed
        }
    }
}

@Suite(.onThreadsOfTheirOwn) struct StoreRecorderTests {
    @Test func recordsTheStateWhenMadeThenEveryLaterStateInOrder() {
        let store = Store(0, queue: .immediate)
        store.update { $0 = 1 }
        let recorder = StoreRecorder(store)
        store.update { $0 = 2 }
        store.update { $0 = 3 }
        #expect(recorder.states == [1, 2, 3])
    }

    @Test func recordsWhateverTheStoresQueueEvenOneThatNeverRuns() {
        let store = Store("idle", queue: ManualCallbackQueue())
        let recorder = StoreRecorder(store)
        store.update { $0 = "loading" }
        #expect(recorder.states == ["idle", "loading"])
        let onMain = Store("idle", queue: .main)  // nobody services the main queue in this synchronous test
        let mainRecorder = StoreRecorder(onMain)
        onMain.update { $0 = "done" }
        #expect(mainRecorder.states == ["idle", "done"])
    }

    @Test func aScreenTestAssertsTheWholeSequence() async throws {
        let books = InteractorSpy<Int, [String]>()
        let presenter = Presenter(store: Store(BooksScreen.idle), translator: BooksTranslator())  // the main queue
        let recorder = StoreRecorder(presenter.store)
        let dispatcher = presenter.asDispatcher()
        books.execute(1).dispatch(to: dispatcher, loading: .loading) { .loaded($0) }
        books.settleNext(with: ["Dune"])
        #expect(try await recorder.states(count: 3, timeout: .seconds(10)) == [.idle, .loading, .loaded(["Dune"])])
    }

    @Test func waitForStatesReturnsTheFirstOnesOnceRecorded() throws {
        let store = Store(0, queue: .immediate)
        let recorder = StoreRecorder(store)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            for value in 1...5 { store.update { $0 = value } }
        }
        #expect(try recorder.waitForStates(count: 4, timeout: .seconds(10)) == [0, 1, 2, 3])
    }

    @Test func aWaitThatRunsOutListsTheStatesRecorded() async throws {
        let store = Store(0, queue: .immediate)
        let recorder = StoreRecorder(store)
        store.update { $0 = 1 }
        let error = try await #require(throws: ResponseProbeError.self) {
            try await recorder.states(count: 3, timeout: .milliseconds(20))
        }
        #expect(error.code == .timedOut)
        #expect(error.description.contains("3 states were not recorded within"))
        #expect(error.description.contains("2 were: [0, 1]"))
    }

    @Test func aBlockingWaitThatRunsOutThrows() {
        let recorder = StoreRecorder(Store(0, queue: .immediate))
        #expect(throws: ResponseProbeError.timedOut(after: .zero)) {
            try recorder.waitForStates(count: 2, timeout: .milliseconds(20))
        }
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func waitingForANegativeCountStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await StoreRecorder(Store(0, queue: .immediate)).states(count: -2, timeout: .zero)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("StoreRecorder<Int>: cannot wait for -2 states"))
    }
    #endif

    @Test func statesAStoreSkippedAreNotRecorded() {
        let store = Store(0, queue: .immediate)
        let recorder = StoreRecorder(store)
        store.update { $0 = 0 }
        store.update { $0 = 1 }
        #expect(recorder.states == [0, 1])
    }

    @Test func releasingTheRecorderStopsItAndItDoesNotKeepTheStoreAlive() {
        var store: Store<Int>? = Store(0, queue: .immediate)
        let weakStore = WeakStore(store!)
        var recorder: StoreRecorder<Int>? = StoreRecorder(store!)
        store = nil
        #expect(weakStore.store == nil)
        #expect(recorder?.states == [0])
        recorder = nil
    }
}

/// A weak reference to a store, to check it was released.
private final class WeakStore: Sendable {
    private let box: LockedBox<Weak>

    private struct Weak {
        weak var store: Store<Int>?
    }

    init(_ store: Store<Int>) {
        self.box = LockedBox(Weak(store: store))
    }

    var store: Store<Int>? { box.withLock { $0.store } }
}
