import Dispatch
public import Interactors
public import Observation

/// A screen's state, safe to read and change from any thread, and observable four ways: with a closure
/// (``observe(_:)``), on the main actor (``observe(on:_:)-(MainCallbackQueue,_)``), as an async sequence
/// (``states``), and through Observation, so a SwiftUI view that reads ``state`` redraws when it changes.
///
/// ```swift
/// let store = Store(LoginScreen.idle)
/// let observation = store.observe(on: .main) { screen in render(screen) }   // idle now, then every change
/// store.update { $0 = .loading }
/// ```
///
/// Changes are applied one at a time, in the order ``update(_:)`` is called; each observer hears each state once,
/// in that order, on its queue, whatever that queue promises about ordering. When `State` is `Equatable`, a change
/// that leaves the state equal is not a change: nobody is told. A ``Presenter`` owns a store and updates it
/// through a ``Translator``.
public final class Store<State: Sendable>: Sendable, Observable {
    /// The state, the observers and whose turn it is to update, read and written only under the lock.
    struct Storage {
        var state: State
        var subscriptions: [Subscription<State>] = []
        var turns = UpdateTurns<State>()
    }

    let storage: LockedBox<Storage>
    /// Where observers added without `on:` hear about changes.
    let queue: any CallbackQueue
    /// Wakes the next updater when the one applying its change hands it the turn.
    private let turnHandoff = DispatchSemaphore(value: 0)
    private let registrar = ObservationRegistrar()
    /// `\Store.state`, built once: a key path into a generic type is instantiated at run time, and building it on
    /// every read and update cost more than the rest of them.
    private let stateKeyPath: any KeyPath<Store, State> & Sendable
    /// `==` for `State`, if it is `Equatable`, whatever the caller knows statically about it.
    private let isEqual: (@Sendable (State, State) -> Bool)?

    /// A store holding `initial`, whose observers hear about changes on `queue` unless they name another.
    ///
    /// - Parameters:
    ///   - initial: The state before any change.
    ///   - queue: Where observers run; the library's default callback queue (the main queue unless the process
    ///     chose another, see `DefaultCallbackQueue`), like a `Response`'s handlers.
    public init(_ initial: State, queue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.storage = LockedBox(Storage(state: initial))
        self.queue = queue
        self.stateKeyPath = \Store.state
        self.isEqual = equality(of: State.self)
    }

    deinit {
        // Observers hear every state queued for them, then their closures are released and streams end.
        let subscriptions = storage.withLock { $0.subscriptions }
        for subscription in subscriptions where subscription.enqueue(.end) {
            subscription.scheduleDrain()
        }
    }

    /// The current state: a snapshot, from any thread. Read inside `withObservationTracking` (or a SwiftUI
    /// view's body), the read is tracked and the next ``update(_:)`` that changes it fires its `onChange`.
    public var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        return storage.withLock { $0.state }
    }

    /// Changes the state with `change`; the new state is stored, and observers are told, before this returns.
    ///
    /// ```swift
    /// store.update { screen in screen.isLoading = true }
    /// ```
    ///
    /// Updates from several threads run one at a time, in the order they get their turn. `change` works on a
    /// copy: readers of ``state`` see the previous state until it returns, and if it throws, the state is left
    /// as it was, nobody is told, and the error is rethrown. When `State` is `Equatable` and the new state equals
    /// the previous one, nobody is told either: no observer, no ``states`` element, no Observation `onChange`.
    ///
    /// An update called while another is being applied on the same thread (from inside `change`, a translator,
    /// or an Observation `onChange`) returns at once, *before its change is stored*: it is applied right after
    /// the current one, on this thread, before the outer `update` returns, in call order, and observers hear each
    /// resulting state. Such a deferred change can no longer throw to its caller: if it throws, the state is left
    /// as it was and the error is written to standard error. Observers on `.immediate` run after the change is
    /// stored, so an update they make is applied at once.
    ///
    /// A `change` must not wait for another thread that updates this store: that thread waits for its turn, which
    /// comes when this change returns. The store cannot see such a wait (a `Response.get()` on work that calls
    /// `update` elsewhere, a semaphore), so both threads hang. Waiting for work that runs on this very thread is
    /// fine: a `get()` that runs, in its own place, work owed to the queue this thread is on, or to the main
    /// queue, defers that work's updates as above. Send follow-up work through a presenter's dispatcher instead.
    public func update<E: Error>(_ change: @escaping (inout State) throws(E) -> Void) throws(E) {
        let thread = currentThreadID()
        var turn = storage.withLock { $0.takeTurn(by: thread, deferring: change) }
        if case .wait = turn {
            turnHandoff.wait()
            turn = storage.withLock { $0.acceptTurn(by: thread) }
        }
        guard case .granted(var current) = turn else { return }  // deferred: applied by this thread's outer update
        var told: [Subscription<State>] = []
        // The caller's own change: its error is the caller's, once the turn is over.
        do {
            current = try apply(change, to: current, telling: &told)
        } catch {
            finishTurn(from: current, telling: told)
            throw error
        }
        finishTurn(from: current, telling: told)
    }

    /// Applies the deferred changes, in order, then hands the turn on and tells the observers, outside the turn
    /// (an observer on `.immediate` runs here, and may update the store itself).
    private func finishTurn(from state: State, telling told: [Subscription<State>]) {
        var told = told
        var current = state
        while let deferred = storage.withLock({ $0.turns.nextDeferred() }) {
            do {
                current = try apply(deferred.change, to: current, telling: &told)
            } catch {
                reportDeferredFailure(error)
            }
        }
        let handsOff = storage.withLock { $0.turns.release() }
        if handsOff { turnHandoff.signal() }
        for subscription in told {
            subscription.scheduleDrain()
        }
    }

    /// Runs `change` on a copy of `state`, the state stored now, and stores the result unless it equals `state`;
    /// returns the state stored afterwards. Adds the subscriptions that need a drain to `told`.
    private func apply<E: Error>(
        _ change: (inout State) throws(E) -> Void,
        to state: State,
        telling told: inout [Subscription<State>]
    ) throws(E) -> State {
        var working = state
        try change(&working)
        if let isEqual, isEqual(state, working) { return state }
        // Swapped in under the lock; the previous state is released after it (a deinit in it is user code).
        var replaced = working
        let subscriptions = registrar.withMutation(of: self, keyPath: stateKeyPath) {
            storage.withLock { storage in
                swap(&storage.state, &replaced)
                return storage.subscriptions
            }
        }
        // Outside the lock (a field observer's filter is user code), but inside the turn: no other update stores
        // a state meanwhile, so every observer's queue of states has the order of the store's changes.
        for subscription in subscriptions where subscription.enqueue(.state(working)) {
            told.append(subscription)
        }
        return working
    }

    /// Stops telling `subscription` about changes.
    func remove(_ subscription: Subscription<State>) {
        storage.withLock { storage in
            storage.subscriptions.removeAll { $0 === subscription }
        }
    }
}
