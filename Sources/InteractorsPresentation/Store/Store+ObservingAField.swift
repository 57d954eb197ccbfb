public import Interactors

// MARK: Observing one field
//
// A screen often cares about one part of its state (a title, a spinner): these observers hear the field's value
// now, then again only when it changes. The filtering happens where the store changes, so a change that leaves
// the field alone costs the observer nothing, not even a hop to its queue.

extension Store {
    /// Tells `observer` the value of `field` now, then each time it changes, on the store's queue.
    ///
    /// ```swift
    /// let observation = store.observe(\.title) { title in print(title) }
    /// ```
    ///
    /// A change of the state that leaves `field` equal tells nothing. Values are told exactly once each, in the
    /// order of the changes, never two at a time, as for ``observe(_:)``.
    ///
    /// - Returns: The observation; the observer hears about changes until it is cancelled or released.
    public func observe<Field: Equatable & Sendable>(
        _ field: any KeyPath<State, Field> & Sendable,
        _ observer: @escaping @Sendable (Field) -> Void
    ) -> StoreObservation {
        observe(field, on: queue, telling: observer)
    }

    /// Tells `observer` the value of `field` now, then each time it changes, on `queue`.
    @_disfavoredOverload
    public func observe<Field: Equatable & Sendable>(
        _ field: any KeyPath<State, Field> & Sendable,
        on queue: some CallbackQueue,
        _ observer: @escaping @Sendable (Field) -> Void
    ) -> StoreObservation {
        observe(field, on: queue, telling: observer)
    }

    /// Tells `observer` the value of `field` now, then each time it changes, on the main actor.
    ///
    /// ```swift
    /// observation = store.observe(\.title, on: .main) { title in self.titleLabel.text = title }
    /// ```
    public func observe<Field: Equatable & Sendable>(
        _ field: any KeyPath<State, Field> & Sendable,
        on queue: MainCallbackQueue,
        _ observer: @escaping @MainActor (Field) -> Void
    ) -> StoreObservation {
        observe(field, on: queue, telling: { value in MainActor.assumeIsolated { observer(value) } })
    }

    private func observe<Field: Equatable & Sendable>(
        _ field: any KeyPath<State, Field> & Sendable,
        on queue: any CallbackQueue,
        telling observer: @escaping @Sendable (Field) -> Void
    ) -> StoreObservation {
        subscribe(
            on: queue,
            filter: { initial in FieldChangeFilter(field, initial: initial).accepts },
            { state in observer(state[keyPath: field]) },
            onEnd: nil
        )
    }
}

/// Lets through the states whose field differs from the one in the last state let through (at first, the state
/// the observer was told when it subscribed).
///
/// Asked only by the thread updating the store, one state at a time, in order, outside the store's lock: reading
/// the field and comparing are user code (a computed property, a custom `==`).
private final class FieldChangeFilter<State: Sendable, Field: Equatable & Sendable>: Sendable {
    private enum Last {
        /// The state told first, whose field is read only when needed: not under the store's lock.
        case state(State)
        case field(Field)
    }

    private let field: any KeyPath<State, Field> & Sendable
    private let last: LockedBox<Last>

    init(_ field: any KeyPath<State, Field> & Sendable, initial: State) {
        self.field = field
        self.last = LockedBox(.state(initial))
    }

    func accepts(_ state: State) -> Bool {
        let value = state[keyPath: field]
        let previous: Field
        switch last.withLock({ $0 }) {
        case .state(let initial): previous = initial[keyPath: field]
        case .field(let field): previous = field
        }
        last.withLock { $0 = .field(value) }
        return value != previous
    }
}
