public import Interactors

// MARK: Observing
//
// Each observer hears the current state first, then every change, each exactly once and in order. Three ways, as
// for a response's handlers: on the store's queue, on a queue of the caller's choice, and on `.main` with a
// `@MainActor` closure. The generic `on:` overload is disfavoured so that `on: .main` picks the main-actor one.

extension Store {
    /// Tells `observer` the current state, then every change, on the store's queue.
    ///
    /// ```swift
    /// let observation = store.observe { screen in log(screen) }
    /// ```
    ///
    /// Each state is told exactly once, in the order of the changes, and never two at a time, whatever the queue
    /// promises. On `.immediate` the current state is told before this returns, and each change on the thread
    /// that made it (or on the thread already telling this observer an earlier one).
    ///
    /// - Returns: The observation; the observer hears about changes until it is cancelled or released.
    public func observe(_ observer: @escaping @Sendable (State) -> Void) -> StoreObservation {
        subscribe(on: queue, observer, onEnd: nil)
    }

    /// Tells `observer` the current state, then every change, on `queue`.
    @_disfavoredOverload
    public func observe(
        on queue: some CallbackQueue,
        _ observer: @escaping @Sendable (State) -> Void
    ) -> StoreObservation {
        subscribe(on: queue, observer, onEnd: nil)
    }

    /// Tells `observer` the current state, then every change, on the main actor.
    ///
    /// ```swift
    /// observation = store.observe(on: .main) { screen in self.titleLabel.text = screen.title }
    /// ```
    public func observe(
        on queue: MainCallbackQueue,
        _ observer: @escaping @MainActor (State) -> Void
    ) -> StoreObservation {
        subscribe(on: queue, { state in MainActor.assumeIsolated { observer(state) } }, onEnd: nil)
    }

    /// Adds a subscription that starts with the current state. Registering and taking the snapshot happen under
    /// one lock, so no change falls between the two and none is told twice. `makeFilter`, given the snapshot,
    /// makes the filter that decides which later states the observer hears (all, without one).
    func subscribe(
        on queue: any CallbackQueue,
        filter makeFilter: ((State) -> @Sendable (State) -> Bool)? = nil,
        _ observer: @escaping @Sendable (State) -> Void,
        onEnd: (@Sendable () -> Void)?
    ) -> StoreObservation {
        let subscription = lock.withLock {
            let subscription = Subscription(
                queue: queue,
                initial: current,
                filter: makeFilter?(current),
                observer: observer,
                onEnd: onEnd
            )
            subscriptions.append(subscription)
            return subscription
        }
        subscription.scheduleDrain()
        return StoreObservation { [weak self] in
            subscription.cancel()
            self?.remove(subscription)
        }
    }
}
