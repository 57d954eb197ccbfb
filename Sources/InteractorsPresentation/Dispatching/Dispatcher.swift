/// Where a use case sends what happened: `.loading`, then `.loggedIn(user)` or `.failed(error)`.
///
/// An interactor is built with a dispatcher and knows nothing of the screen behind it. A ``Presenter`` is one;
/// ``AnyDispatcher`` wraps any other, or a closure, and adapts one use case's actions to another's with
/// ``AnyDispatcher/map(_:)``.
///
/// ```swift
/// struct LoginInteractor {
///     let auth: AuthService
///     let dispatcher: AnyDispatcher<LoginAction>
///
///     func login(_ credentials: Credentials) -> Response<User> {
///         auth.logIn(credentials).dispatch(to: dispatcher, loading: .loading) { .login($0) }
///     }
/// }
/// ```
public protocol Dispatcher<Action>: Sendable {
    /// What this dispatcher accepts.
    associatedtype Action: Sendable

    /// Sends `action` on. Callable from any thread. Whether the action is handled before this returns is the
    /// dispatcher's choice: a ``Presenter`` on `.immediate` translates it at once, on any other queue later.
    func dispatch(_ action: Action)
}
