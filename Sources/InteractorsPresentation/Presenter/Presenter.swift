public import Interactors

/// The far end of a use case: it receives the use case's actions, turns each into a change of the screen's
/// state with its ``Translator``, and keeps that state in its ``Store`` for the screen to observe.
///
/// ```swift
/// let presenter = Presenter(store: Store(LoginScreen.idle), translator: LoginTranslator())
/// let interactor = LoginInteractor(auth: auth, dispatcher: presenter.asDispatcher())
/// let observation = presenter.store.observe(on: .main) { screen in render(screen) }
///
/// interactor.login(credentials)   // the screen shows .loading, then .signedIn or .failed
/// ```
///
/// Actions may be dispatched from any thread. They are translated one at a time, first in first out, on the
/// presenter's queue, whatever that queue promises about order; an action dispatched during a translation (by
/// the translator, or by an observer on `.immediate`) waits its turn behind it.
public final class Presenter<T: Translator>: Dispatcher {
    /// The actions this presenter accepts: its translator's.
    public typealias Action = T.Action

    /// The screen's state, changed by each translation.
    public let store: Store<T.State>

    private let translator: T
    private let queue: any CallbackQueue
    private let inbox = LockedBox(Inbox())

    private struct Inbox {
        var pending = FIFO<T.Action>()
        /// A drain job is scheduled or running; whoever finds it `false` and queues an action schedules one.
        var isDraining = false
    }

    /// A presenter that translates actions into changes of `store` with `translator`, on `queue`.
    ///
    /// - Parameters:
    ///   - store: The state the screen observes.
    ///   - translator: Turns each action into a change of the state.
    ///   - queue: Where translations run; the library's default callback queue (the main queue unless the
    ///     process chose another, see `DefaultCallbackQueue`). With `.immediate`, the dispatching thread
    ///     translates its action, and any that arrive from other threads meanwhile, before `dispatch` returns.
    public init(store: Store<T.State>, translator: T, queue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.store = store
        self.translator = translator
        self.queue = queue
    }

    /// Queues `action` for translation; callable from any thread, and from inside a translation.
    public func dispatch(_ action: T.Action) {
        let startsDrain = inbox.withLock { inbox in
            inbox.pending.append(action)
            guard !inbox.isDraining else { return false }
            inbox.isDraining = true
            return true
        }
        if startsDrain {
            queue.schedule { [self] in drain() }
        }
    }

    /// This presenter as an ``AnyDispatcher``, what an interactor is built with. It holds the presenter: an
    /// interactor built with it keeps its presenter (and so the store) alive.
    public func asDispatcher() -> AnyDispatcher<T.Action> {
        AnyDispatcher(self)
    }

    /// Translates waiting actions, oldest first, until none is left. At most one drain runs at a time.
    private func drain() {
        while let action = nextAction() {
            store.update { state in translator.translate(action, state: &state) }
        }
    }

    private func nextAction() -> T.Action? {
        inbox.withLock { inbox in
            if let action = inbox.pending.popFirst() { return action }
            inbox.isDraining = false
            return nil
        }
    }
}
