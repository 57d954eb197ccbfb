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
public final class Store<State: Sendable>: @unchecked Sendable, Observable {
    // @unchecked Sendable: every `var` below is read and written only while `lock` is held, and the lock is never
    // held while user code runs (a change, an observer, a deinit of a state).

    // MARK: Storage
    //
    // The hot paths (`state`, `update`) are `@inlinable` and the storage `@usableFromInline`, so they are
    // specialised for the state type in the caller's module, as `Response`'s are: unspecialised, the generic
    // metadata look-ups cost several times the work.

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var current: State
    @usableFromInline @exclusivity(unchecked) var subscriptions: [Subscription<State>] = []
    @usableFromInline @exclusivity(unchecked) var turns = UpdateTurns<State>()
    /// Where observers added without `on:` hear about changes.
    @usableFromInline let queue: any CallbackQueue
    /// Wakes the next updater when the one applying its change hands it the turn.
    @usableFromInline let handoff = TurnHandoff()
    @usableFromInline let registrar = ObservationRegistrar()
    /// `\Store.state`, built once: a key path into a generic type is instantiated at run time, and building it on
    /// every read and update cost more than the rest of them.
    @usableFromInline let stateKeyPath: any KeyPath<Store, State> & Sendable
    /// `==` for `State`, if it is `Equatable`, whatever the caller knows statically about it.
    @usableFromInline let isEqual: (@Sendable (State, State) -> Bool)?

    /// A store holding `initial`, whose observers hear about changes on `queue` unless they name another.
    ///
    /// - Parameters:
    ///   - initial: The state before any change.
    ///   - queue: Where observers run; the library's default callback queue (the main queue unless the process
    ///     chose another, see `DefaultCallbackQueue`), like a `Response`'s handlers.
    public init(_ initial: State, queue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.current = initial
        self.queue = queue
        self.stateKeyPath = \Store.state
        self.isEqual = equality(of: State.self)
    }

    /// A store whose `==` is known: the one a caller that knows `State` is `Equatable` passes, compiled for it.
    @usableFromInline
    init(_ initial: State, queue: any CallbackQueue, isEqual: @escaping @Sendable (State, State) -> Bool) {
        self.current = initial
        self.queue = queue
        self.stateKeyPath = \Store.state
        self.isEqual = isEqual
    }

    deinit {
        // Observers hear every state queued for them, then their closures are released and streams end.
        for subscription in subscriptions where subscription.enqueue(.end) {
            subscription.scheduleDrain()
        }
    }

    /// The current state: a snapshot, from any thread. Read inside `withObservationTracking` (or a SwiftUI
    /// view's body), the read is tracked and the next ``update(_:)`` that changes it fires its `onChange`.
    @inlinable
    public var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        lock.lock()
        defer { lock.unlock() }
        return current
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
    @inlinable
    public func update<E: Error>(_ change: @escaping (inout State) throws(E) -> Void) throws(E) {
        let thread = currentUpdaterID()
        lock.lock()
        switch turns.take(by: thread) {
        case .deferred:
            lock.unlock()
            deferChange(change)  // applied by this thread's outer update, before it returns
            return
        case .wait:
            lock.unlock()
            handoff.wait()
            lock.lock()
            turns.accept(by: thread)
        case .granted:
            break
        }
        lock.unlock()
        var told: [Subscription<State>] = []
        do {
            try apply(change, telling: &told)
        } catch {
            // The caller's own change: its error is the caller's, once the turn is over.
            finishTurn(telling: told)
            throw error
        }
        finishTurn(telling: told)
    }

    // MARK: Applying a change
    //
    // Only the thread holding the turn writes `current`, under the lock; other threads only read it, under the
    // lock. So the turn's holder reads it without the lock: a read never races a read, and its own writes come
    // before. It changes a copy and compares it with `current` without copying `current` again.

    /// Runs `change` on a copy of the state and stores the result unless it equals the state; adds the
    /// subscriptions that need a drain to `told`. Called by the thread holding the turn.
    @inlinable
    func apply<E: Error>(_ change: (inout State) throws(E) -> Void, telling told: inout [Subscription<State>]) throws(E)
    {
        var working = current
        try change(&working)
        if let isEqual, isEqual(current, working) { return }
        let subscriptions = registrar.withMutation(of: self, keyPath: stateKeyPath) {
            lock.lock()
            defer { lock.unlock() }
            swap(&current, &working)  // `working` holds the previous state now: released after the lock
            return self.subscriptions
        }
        // Outside the lock (a field observer's filter is user code), but inside the turn: no other update stores
        // a state meanwhile, so every observer's queue of states has the order of the store's changes.
        for subscription in subscriptions where subscription.enqueue(.state(current)) {
            told.append(subscription)
        }
    }

    /// Applies the changes deferred meanwhile, then hands the turn on and tells the observers, outside the turn
    /// (an observer on `.immediate` runs here, and may update the store itself).
    @inlinable
    func finishTurn(telling told: [Subscription<State>]) {
        var told = told
        lock.lock()
        if turns.hasDeferred {
            lock.unlock()
            applyDeferredChanges(telling: &told)
            lock.lock()
        }
        let handsOff = turns.release()
        lock.unlock()
        if handsOff { handoff.signal() }
        for subscription in told {
            subscription.scheduleDrain()
        }
    }

    /// Stops telling `subscription` about changes.
    func remove(_ subscription: Subscription<State>) {
        lock.withLock {
            subscriptions.removeAll { $0 === subscription }
        }
    }
}

extension Store where State: Equatable {
    /// A store holding `initial`, whose observers hear about changes on `queue` unless they name another.
    ///
    /// The same as the store of any state; for an `Equatable` state known as such, the comparison that skips an
    /// update leaving the state equal is compiled for it rather than found at run time.
    ///
    /// - Parameters:
    ///   - initial: The state before any change.
    ///   - queue: Where observers run; the library's default callback queue (the main queue unless the process
    ///     chose another, see `DefaultCallbackQueue`), like a `Response`'s handlers.
    @inlinable
    public convenience init(_ initial: State, queue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.init(initial, queue: queue, isEqual: { $0 == $1 })
    }
}
