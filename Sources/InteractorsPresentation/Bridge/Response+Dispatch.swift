public import Interactors

// MARK: Feeding a presenter
//
// An interactor can both return a `Response` and feed a presenter: the response sends the presenter one action
// when it settles. The action is sent from the settling thread (an `.immediate` handler): the dispatcher decides
// where the translation runs, so nothing waits for a main queue that nobody services.
//
// Cancellation is not an outcome to show: the screen asked for it (a new search replaced the old one, the user
// left), so a cancelled response sends nothing, or the `cancelled` action if the caller gave one.

extension Response {
    /// Sends `dispatcher` the action `makeAction` builds from the outcome, once, when the response settles:
    /// succeeds or fails. If it ends cancelled, `makeAction` is not called: `cancelled` is sent if given, else
    /// nothing.
    ///
    /// ```swift
    /// func login(_ credentials: Credentials) -> Response<User> {
    ///     auth.logIn(credentials).dispatch(to: dispatcher) { .login($0) }
    /// }
    /// ```
    ///
    /// A response ends cancelled when it was cancelled (`isCancelled`), or failed with a `CancellationError`
    /// (the work saw its task cancelled).
    ///
    /// - Returns: This response, for chaining and for the interactor to return.
    @discardableResult
    public func dispatch<Action: Sendable>(
        to dispatcher: some Dispatcher<Action>,
        cancelled: Action? = nil,
        _ makeAction: @escaping @Sendable (Result<Value, any Error>) -> Action
    ) -> Response {
        onResult(on: .immediate) { outcome in
            if case .failure(let error) = outcome, error is CancellationError {
                if let cancelled { dispatcher.dispatch(cancelled) }
            } else {
                dispatcher.dispatch(makeAction(outcome))
            }
        }
    }

    /// Sends `dispatcher` `loading` now, before this returns, then the action `makeAction` builds from the
    /// outcome, once, when the response settles; if it ends cancelled, `cancelled` if given, else nothing.
    ///
    /// ```swift
    /// func login(_ credentials: Credentials) -> Response<User> {
    ///     auth.logIn(credentials).dispatch(to: dispatcher, loading: .loading) { .login($0) }
    /// }
    /// ```
    ///
    /// `loading` always comes first, even for a response that has already settled.
    ///
    /// - Returns: This response, for chaining and for the interactor to return.
    @discardableResult
    public func dispatch<Action: Sendable>(
        to dispatcher: some Dispatcher<Action>,
        loading: Action,
        cancelled: Action? = nil,
        _ makeAction: @escaping @Sendable (Result<Value, any Error>) -> Action
    ) -> Response {
        dispatcher.dispatch(loading)
        return dispatch(to: dispatcher, cancelled: cancelled, makeAction)
    }
}
