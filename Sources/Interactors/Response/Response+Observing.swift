// MARK: Observing
//
// Each kind of handler comes three ways: on the response's own callback queue, on a queue of the caller's
// choice, and on `.main` with a `@MainActor` closure. The generic `on:` overloads are disfavoured: without that,
// Swift 6.3 picks them over the `@MainActor` ones for `on: .main`.

extension Response {
    /// Runs `handler` with the value if the response succeeds, on the response's callback queue. Added before or
    /// after settlement, it runs exactly once (or never, if the response fails).
    @inlinable
    @discardableResult
    public func onCompletion(_ handler: @escaping @Sendable (Value) -> Void) -> Response {
        addHandler(.success(handler), on: queueReference)
        return self
    }

    /// Runs `handler` with the value if the response succeeds, on `queue`.
    @inlinable
    @_disfavoredOverload
    @discardableResult
    public func onCompletion(on queue: some CallbackQueue, _ handler: @escaping @Sendable (Value) -> Void) -> Response {
        addHandler(.success(handler), onKnown: queue)
        return self
    }

    /// Runs `handler` on the main actor with the value if the response succeeds.
    @inlinable
    @discardableResult
    public func onCompletion(on queue: MainCallbackQueue, _ handler: @escaping @MainActor (Value) -> Void) -> Response {
        addHandler(.success { value in MainActor.assumeIsolated { handler(value) } }, on: .main)
        return self
    }

    /// Runs `handler` with the error if the response fails (cancellation included), on the response's callback
    /// queue. Added before or after settlement, it runs exactly once (or never, if the response succeeds).
    @inlinable
    @discardableResult
    public func onFailure(_ handler: @escaping @Sendable (any Error) -> Void) -> Response {
        addHandler(.failure(handler), on: queueReference)
        return self
    }

    /// Runs `handler` with the error if the response fails, on `queue`.
    @inlinable
    @_disfavoredOverload
    @discardableResult
    public func onFailure(on queue: some CallbackQueue, _ handler: @escaping @Sendable (any Error) -> Void) -> Response
    {
        addHandler(.failure(handler), onKnown: queue)
        return self
    }

    /// Runs `handler` on the main actor with the error if the response fails.
    @inlinable
    @discardableResult
    public func onFailure(on queue: MainCallbackQueue, _ handler: @escaping @MainActor (any Error) -> Void) -> Response
    {
        addHandler(.failure { error in MainActor.assumeIsolated { handler(error) } }, on: .main)
        return self
    }

    /// Runs `handler` with the outcome, success or failure, on the response's callback queue. Added before or
    /// after settlement, it runs exactly once.
    @inlinable
    @discardableResult
    public func onResult(_ handler: @escaping @Sendable (Result<Value, any Error>) -> Void) -> Response {
        addHandler(.result(handler), on: queueReference)
        return self
    }

    /// Runs `handler` with the outcome on `queue`.
    @inlinable
    @_disfavoredOverload
    @discardableResult
    public func onResult(
        on queue: some CallbackQueue,
        _ handler: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Response {
        addHandler(.result(handler), onKnown: queue)
        return self
    }

    /// Runs `handler` on the main actor with the outcome.
    @inlinable
    @discardableResult
    public func onResult(
        on queue: MainCallbackQueue,
        _ handler: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) -> Response {
        addHandler(.result { outcome in MainActor.assumeIsolated { handler(outcome) } }, on: .main)
        return self
    }
}
