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
///
/// A presenter never holds its queue for long: on a queue that runs jobs later (the main queue, a
/// `DispatchQueue`), one job translates at most 64 actions, then queues the rest as a new job behind whatever
/// else is waiting there, so a main-queue presenter flooded from another thread lets a frame, a tap or a
/// timer in between every 64 translations. On a queue that runs jobs at once (`.immediate`, or `.default` while
/// it forwards there) the dispatching thread translates everything waiting before `dispatch` returns.
public final class Presenter<T: Translator>: Dispatcher, @unchecked Sendable {
    // @unchecked Sendable: `pending` and `isDraining` are read and written only while `lock` is held. The hot
    // paths are `@inlinable`, specialised for the translator in the caller's module, like the store's.

    /// The actions this presenter accepts: its translator's.
    public typealias Action = T.Action

    /// The screen's state, changed by each translation.
    public let store: Store<T.State>

    @usableFromInline let translator: T
    @usableFromInline let queue: any CallbackQueue
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var pending = FIFO<T.Action>()
    /// A drain job is scheduled or running; whoever finds it `false` and queues an action schedules one.
    @usableFromInline @exclusivity(unchecked) var isDraining = false

    /// The most actions one job translates on a queue that runs jobs later.
    @inlinable
    static var batchSize: Int { 64 }

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
    @inlinable
    public func dispatch(_ action: T.Action) {
        lock.lock()
        pending.append(action)
        let startsDrain = !isDraining
        isDraining = true
        lock.unlock()
        if startsDrain {
            queue.schedule { [self] in drain() }
        }
    }

    /// This presenter as an ``AnyDispatcher``, what an interactor is built with. It holds the presenter: an
    /// interactor built with it keeps its presenter (and so the store) alive.
    public func asDispatcher() -> AnyDispatcher<T.Action> {
        AnyDispatcher(self)
    }

    /// Translates waiting actions, oldest first, until none is left, a batch at a time. At most one drain runs at
    /// a time.
    ///
    /// After a batch, the rest goes to the queue as a new job. A queue that runs that job at once (before
    /// `schedule` returns, on this thread) would make the drains recurse, one stack frame per batch: the new job
    /// then only tells this one to go on, in its loop.
    @inlinable
    func drain() {
        while true {
            var translated = 0
            while translated < Self.batchSize, let action = nextAction() {
                store.update { state in self.translator.translate(action, state: &state) }
                translated += 1
            }
            guard translated == Self.batchSize, hasMoreActions() else { return }
            let handoff = BatchHandoff()
            queue.schedule { [self] in
                if !handoff.startsInline() { drain() }
            }
            guard handoff.ranInline() else { return }
        }
    }

    /// The oldest waiting action; with none left, the drain is over.
    @inlinable
    func nextAction() -> T.Action? {
        lock.lock()
        defer { lock.unlock() }
        if let action = pending.popFirst() { return action }
        isDraining = false
        return nil
    }

    /// Whether an action waits (the drain goes on); if none does, the drain is over.
    @inlinable
    func hasMoreActions() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if !pending.isEmpty { return true }
        isDraining = false
        return false
    }
}

/// Tells a drain whether the job it scheduled for the next batch ran at once, inside `schedule`, on its own
/// thread: the drain then goes on in its loop, and the job does nothing.
@usableFromInline
final class BatchHandoff: Sendable {
    private struct State {
        let scheduler: UInt
        var scheduleReturned = false
        var ranInline = false
    }

    private let state: LockedBox<State>

    /// Made by the drain, on its thread, right before it schedules the job.
    @usableFromInline
    init() {
        self.state = LockedBox(State(scheduler: currentThreadID()))
    }

    /// Called by the job: whether it starts inside `schedule`, on the scheduling thread (it then does nothing).
    @usableFromInline
    func startsInline() -> Bool {
        let thread = currentThreadID()
        return state.withLock { state in
            guard !state.scheduleReturned, state.scheduler == thread else { return false }
            state.ranInline = true
            return true
        }
    }

    /// Called by the drain once `schedule` returned: whether the job ran inside it.
    @usableFromInline
    func ranInline() -> Bool {
        state.withLock { state in
            state.scheduleReturned = true
            return state.ranInline
        }
    }
}
