/// A dispatcher of any kind, or a closure, behind one type: what an interactor stores.
///
/// ```swift
/// let dispatcher = presenter.asDispatcher()                     // from a presenter
/// let logging = AnyDispatcher<LoginAction> { print($0) }        // from a closure
/// let profile: AnyDispatcher<ProfileAction> = dispatcher.map { .profile($0) }   // adapted
/// ```
///
/// It holds what it wraps strongly: an interactor built with a presenter's dispatcher keeps that presenter alive.
public struct AnyDispatcher<Action: Sendable>: Dispatcher {
    private let send: @Sendable (Action) -> Void

    /// Wraps `dispatcher`. Wrapping an `AnyDispatcher` again adds no layer.
    public init(_ dispatcher: some Dispatcher<Action>) {
        if let erased = dispatcher as? AnyDispatcher<Action> {
            self = erased
        } else {
            self.send = dispatcher.dispatch
        }
    }

    /// A dispatcher that runs `dispatch` with each action, on the dispatching thread.
    public init(_ dispatch: @escaping @Sendable (Action) -> Void) {
        self.send = dispatch
    }

    /// Sends `action` to the wrapped dispatcher.
    public func dispatch(_ action: Action) {
        send(action)
    }

    /// A dispatcher for another use case's actions: each is turned into one of this dispatcher's by `transform`
    /// and sent here. This is how one presenter serves several interactors whose action types differ.
    ///
    /// ```swift
    /// enum ScreenAction { case login(LoginAction), profile(ProfileAction) }
    ///
    /// let screen = presenter.asDispatcher()                     // AnyDispatcher<ScreenAction>
    /// let login = LoginInteractor(dispatcher: screen.map { .login($0) })
    /// let profile = ProfileInteractor(dispatcher: screen.map { .profile($0) })
    /// ```
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Other) -> Action) -> AnyDispatcher<Other> {
        let send = self.send
        return AnyDispatcher<Other> { other in send(transform(other)) }
    }
}
