public import Interactors

// MARK: Feeding a presenter
//
// An interactor can both return a `Response` and feed a presenter: the response sends the presenter one action
// when it settles. The action is sent from the settling thread (an `.immediate` handler): the dispatcher decides
// where the translation runs, so nothing waits for a main queue that nobody services.

extension Response {
    /// Sends `dispatcher` the action `makeAction` builds from the outcome, once, when the response settles:
    /// succeeds, fails or is cancelled (the outcome is then a `CancellationError`).
    ///
    /// ```swift
    /// func login(_ credentials: Credentials) -> Response<User> {
    ///     auth.logIn(credentials).dispatch(to: dispatcher) { .login($0) }
    /// }
    /// ```
    ///
    /// - Returns: This response, for chaining and for the interactor to return.
    @discardableResult
    public func dispatch<Action: Sendable>(
        to dispatcher: some Dispatcher<Action>,
        _ makeAction: @escaping @Sendable (Result<Value, any Error>) -> Action
    ) -> Response {
        onResult(on: .immediate) { outcome in dispatcher.dispatch(makeAction(outcome)) }
    }

    /// Sends `dispatcher` `loading` now, before this returns, then the action `makeAction` builds from the
    /// outcome, once, when the response settles.
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
        _ makeAction: @escaping @Sendable (Result<Value, any Error>) -> Action
    ) -> Response {
        dispatcher.dispatch(loading)
        return dispatch(to: dispatcher, makeAction)
    }
}
