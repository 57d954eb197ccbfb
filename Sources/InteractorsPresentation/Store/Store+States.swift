import Interactors

// MARK: Async sequence
//
// The sequences subscribe when iteration begins, not when they are made: one that is kept but never iterated
// holds nothing (no state buffered, not even the store).

extension Store {
    /// The state current when iteration begins, then every change, as an async sequence; it ends when the store
    /// is released.
    ///
    /// ```swift
    /// for await screen in store.states {
    ///     render(screen)
    /// }
    /// ```
    ///
    /// None is dropped: states the loop has not reached yet wait in order (use ``states(bufferingNewest:)`` to
    /// keep only the newest). Each iteration is an observer of its own, from the moment it begins (the iterator
    /// is made), fed on the thread that changes the store (no queue hop, so it works where nobody services the
    /// main queue); it stops observing when the loop ends or its task is cancelled. The sequence holds the store
    /// weakly: iterating it once the store is gone ends at once.
    public var states: some AsyncSequence<State, Never> {
        StoreStates(store: self, buffering: .unbounded)
    }

    /// The state current when iteration begins, then every change, keeping at most the newest `count` states the
    /// loop has not taken yet: a slow loop skips to the latest instead of falling behind.
    ///
    /// ```swift
    /// for await screen in store.states(bufferingNewest: 1) {
    ///     render(screen)   // always the latest state, never a backlog
    /// }
    /// ```
    ///
    /// Otherwise as ``states``.
    ///
    /// - Precondition: `count` ≥ 1.
    public func states(bufferingNewest count: Int) -> some AsyncSequence<State, Never> {
        precondition(
            count >= 1,
            "InteractorsPresentation: Store.states(bufferingNewest:) needs a count of at least 1, not \(count): "
                + "a loop that may keep no state would never see one."
        )
        return StoreStates(store: self, buffering: .bufferingNewest(count))
    }
}

/// The sequence behind ``Store/states`` and ``Store/states(bufferingNewest:)``: a weak reference to the store and
/// a buffering policy until iteration begins.
struct StoreStates<State: Sendable>: AsyncSequence, Sendable {
    typealias Element = State
    typealias Failure = Never

    private weak var store: Store<State>?
    private let buffering: AsyncStream<State>.Continuation.BufferingPolicy

    init(store: Store<State>, buffering: AsyncStream<State>.Continuation.BufferingPolicy) {
        self.store = store
        self.buffering = buffering
    }

    /// Subscribes now: the iterator's first element is the state current at this moment.
    func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: buffering)
        if let store {
            let observation = store.subscribe(
                on: ImmediateCallbackQueue.shared,
                { state in continuation.yield(state) },
                onEnd: { continuation.finish() }
            )
            continuation.onTermination = { _ in observation.cancel() }
        } else {
            continuation.finish()
        }
        return Iterator(base: stream.makeAsyncIterator())
    }

    /// One loop's states.
    struct Iterator: AsyncIteratorProtocol {
        typealias Element = State
        typealias Failure = Never

        var base: AsyncStream<State>.Iterator

        mutating func next() async -> State? {
            await base.next()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> State? {
            await base.next(isolation: actor)
        }
    }
}
