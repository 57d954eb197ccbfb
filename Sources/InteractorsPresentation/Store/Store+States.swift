import Interactors

// MARK: Async sequence

extension Store {
    /// The current state, then every change, as an async sequence; it ends when the store is released.
    ///
    /// ```swift
    /// for await screen in store.states {
    ///     render(screen)
    /// }
    /// ```
    ///
    /// None is dropped: states the loop has not reached yet wait in order. Each iteration of `states` is an
    /// observer of its own, fed on the thread that changes the store (no queue hop, so it works where nobody
    /// services the main queue); it stops observing when the loop ends or its task is cancelled.
    public var states: some AsyncSequence<State, Never> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let observation = subscribe(
                on: ImmediateCallbackQueue.shared,
                { state in continuation.yield(state) },
                onEnd: { continuation.finish() }
            )
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
