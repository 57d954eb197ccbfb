import Interactors
public import InteractorsPresentation

/// Records every state of a presentation `Store`, in order, for a screen test to assert the whole sequence.
///
/// ```swift
/// let recorder = StoreRecorder(presenter.store)
/// interactor.loadBooks()
/// #expect(try await recorder.states(count: 3, timeout: .seconds(5)) == [.idle, .loading, .loaded(books)])
/// ```
///
/// It records the store's state when it is made, then every later state, in the order the store took them,
/// whatever the store's queue: it observes on the thread that changes the store (`.immediate`), so it needs no
/// queue to be serviced, the main queue included. States that an `Equatable` store skipped (an update that left
/// the state equal) are not states: they are not recorded. Releasing the recorder stops the recording; it does
/// not keep the store alive.
public final class StoreRecorder<State: Sendable>: Sendable {
    private let recorded = Watched<[State]>([])
    private let observation: StoreObservation

    /// Starts recording `store`: its state now is the first one recorded.
    public init(_ store: Store<State>) {
        let recorded = self.recorded
        self.observation = store.observe(on: .immediate) { state in
            recorded.modify { $0.append(state) }
        }
    }

    deinit {
        observation.cancel()
    }

    /// Every state recorded so far, oldest first.
    public var states: [State] {
        recorded.value
    }

    /// Waits, suspended, until at least `count` states have been recorded, and returns the first `count`;
    /// throws a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut`` if `timeout` passes first.
    ///
    /// - Precondition: `count` ≥ 0.
    public func states(count: Int, timeout: Duration) async throws -> [State] {
        try await recorded.elements(Self.wanted, count: count, timeout: timeout) { $0 }
    }

    /// Waits, blocking this thread, until at least `count` states have been recorded, and returns the first
    /// `count`; throws a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut`` if `timeout`
    /// passes first. For synchronous tests; in `async` code use ``states(count:timeout:)``.
    ///
    /// - Precondition: `count` ≥ 0.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `states(count:timeout:)`")
    public func waitForStates(count: Int, timeout: Duration) throws -> [State] {
        try recorded.waitForElements(Self.wanted, count: count, timeout: timeout) { $0 }
    }

    private static var wanted: ElementsWanted {
        ElementsWanted(owner: "StoreRecorder<\(State.self)>", plural: "states", participle: "recorded")
    }
}
