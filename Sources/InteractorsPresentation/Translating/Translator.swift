/// Turns each action into a change of a screen's state: the one place that decides what the screen shows.
///
/// A translator is a pure function of the action and the current state. A ``Presenter`` calls it with one action
/// at a time, in the order they were dispatched, so it needs no locking of its own.
///
/// ```swift
/// struct LoginTranslator: Translator {
///     func translate(_ action: LoginAction, state: inout LoginScreen) {
///         switch action {
///         case .loading: state = .loading
///         case .login(.success(let user)): state = .signedIn(user.name)
///         case .login(.failure(let error)): state = .failed("\(error)")
///         }
///     }
/// }
/// ```
///
/// Send follow-up work through the presenter's dispatcher rather than by updating the store from here: the
/// store is being updated while `translate` runs, so an update made from here is deferred until this one is
/// stored (see ``Store/update(_:)``).
public protocol Translator<Action, State>: Sendable {
    /// The actions this translator understands.
    associatedtype Action: Sendable
    /// The state it changes.
    associatedtype State: Sendable

    /// Applies `action` to `state`.
    func translate(_ action: Action, state: inout State)
}
