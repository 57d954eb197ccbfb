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
/// in that order, on its queue, whatever that queue promises about ordering. A ``Presenter`` owns a store and
/// updates it through a ``Translator``.
public final class Store<State: Sendable>: Sendable, Observable {
    /// The state and the observers, read and written only under the lock.
    struct Storage {
        var state: State
        var subscriptions: [Subscription<State>] = []
    }

    let storage: LockedBox<Storage>
    /// Where observers added without `on:` hear about changes.
    let queue: any CallbackQueue
    private let gate = UpdateGate()
    private let registrar = ObservationRegistrar()

    /// A store holding `initial`, whose observers hear about changes on `queue` unless they name another.
    ///
    /// - Parameters:
    ///   - initial: The state before any change.
    ///   - queue: Where observers run; the library's default callback queue (the main queue unless the process
    ///     chose another, see `DefaultCallbackQueue`), like a `Response`'s handlers.
    public init(_ initial: State, queue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.storage = LockedBox(Storage(state: initial))
        self.queue = queue
    }

    deinit {
        // Observers hear every state queued for them, then their closures are released and streams end.
        let subscriptions = storage.withLock { $0.subscriptions }
        for subscription in subscriptions where subscription.enqueue(.end) {
            subscription.scheduleDrain()
        }
    }

    /// The current state: a snapshot, from any thread. Read inside `withObservationTracking` (or a SwiftUI
    /// view's body), the read is tracked and the next ``update(_:)`` fires its `onChange`.
    public var state: State {
        registrar.access(self, keyPath: \.state)
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
    /// as it was, nobody is told, and the error is rethrown.
    ///
    /// Updating the store from inside `change` (or from anything `change` calls synchronously, such as a
    /// translator or an Observation `onChange`) is a programming error that stops the program with a message
    /// saying so: the outer change is not stored yet, so the inner one could only be lost or wait forever.
    /// Observers may update the store: they run after the change is stored.
    public func update<E: Error>(_ change: (inout State) throws(E) -> Void) throws(E) {
        let told = try gate.withGate { () throws(E) -> [Subscription<State>] in
            var working = storage.withLock { $0.state }
            try change(&working)
            return registrar.withMutation(of: self, keyPath: \.state) { store(&working) }
        }
        // Outside the gate: an observer on `.immediate` runs here, and may update the store itself.
        for subscription in told {
            subscription.scheduleDrain()
        }
    }

    /// Swaps `state` in and queues it for every observer, under the lock, so every observer's queue of states has
    /// the same order as the store's changes. Returns the observers that need a drain scheduled. The previous
    /// state is left in `state`, to be released by the caller outside the lock.
    private func store(_ state: inout State) -> [Subscription<State>] {
        storage.withLock { storage in
            swap(&storage.state, &state)
            return storage.subscriptions.filter { $0.enqueue(.state(storage.state)) }
        }
    }

    /// Stops telling `subscription` about changes.
    func remove(_ subscription: Subscription<State>) {
        storage.withLock { storage in
            storage.subscriptions.removeAll { $0 === subscription }
        }
    }
}
