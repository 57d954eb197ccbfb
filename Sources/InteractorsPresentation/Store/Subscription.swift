import Interactors

/// One observer of a store: its closure, its queue, and the states it has yet to hear, in order.
///
/// A `CallbackQueue` promises neither order nor one job at a time (a concurrent `DispatchQueue` does neither),
/// so the subscription keeps its own first-in, first-out mailbox and has at most one drain job on its queue at a
/// time; the drain tells the observer every state waiting, oldest first, and stops when the mailbox is empty.
final class Subscription<State: Sendable>: Sendable {
    enum Delivery {
        /// A state to tell the observer.
        case state(State)
        /// The store was released: release the observer, and run its `onEnd`.
        case end
    }

    private struct Mailbox {
        var observer: (@Sendable (State) -> Void)?
        var onEnd: (@Sendable () -> Void)?
        var pending = FIFO<Delivery>()
        /// A drain job is scheduled or running; whoever finds it `false` and queues something schedules one.
        var isDraining = false
    }

    private let queue: any CallbackQueue
    private let mailbox: LockedBox<Mailbox>
    /// Which later states the observer hears (all, without one); asked by the updating thread, in the order of the
    /// store's changes, outside every lock.
    private let filter: (@Sendable (State) -> Bool)?

    /// A subscription whose first delivery, `initial`, is already waiting: the caller must schedule a drain.
    init(
        queue: any CallbackQueue,
        initial: State,
        filter: (@Sendable (State) -> Bool)? = nil,
        observer: @escaping @Sendable (State) -> Void,
        onEnd: (@Sendable () -> Void)?
    ) {
        var mailbox = Mailbox(observer: observer, onEnd: onEnd, isDraining: true)
        mailbox.pending.append(.state(initial))
        self.queue = queue
        self.mailbox = LockedBox(mailbox)
        self.filter = filter
    }

    /// Queues `delivery` unless the filter turns a state away; returns whether the caller must schedule a drain.
    /// Nothing is queued once cancelled.
    func enqueue(_ delivery: Delivery) -> Bool {
        if let filter, case .state(let state) = delivery, !filter(state) { return false }
        return mailbox.withLock { mailbox in
            guard mailbox.observer != nil else { return false }
            mailbox.pending.append(delivery)
            guard !mailbox.isDraining else { return false }
            mailbox.isDraining = true
            return true
        }
    }

    func scheduleDrain() {
        queue.schedule { [self] in drain() }
    }

    /// Stops deliveries, drops the states waiting and releases the closures (outside the lock: releasing a
    /// closure may release user objects, whose deinit is user code). A delivery already running finishes.
    func cancel() {
        let released = mailbox.withLock { mailbox in
            defer { mailbox = Mailbox(isDraining: mailbox.isDraining) }
            return mailbox
        }
        withExtendedLifetime(released) {}
    }

    /// What a drain does next, worked out under the lock and done outside it.
    private enum Step {
        case tell(@Sendable (State) -> Void, State)
        /// The store is gone: run `onEnd`, then release the closures.
        case end(Mailbox)
    }

    private func drain() {
        while let step = nextStep() {
            switch step {
            case .tell(let observer, let state):
                observer(state)
            case .end(let ended):
                ended.onEnd?()
            }
        }
    }

    private func nextStep() -> Step? {
        mailbox.withLock { mailbox in
            while let delivery = mailbox.pending.popFirst() {
                switch delivery {
                case .state(let state):
                    guard let observer = mailbox.observer else { continue }
                    return .tell(observer, state)
                case .end:
                    defer { mailbox = Mailbox(isDraining: true) }
                    return .end(mailbox)
                }
            }
            mailbox.isDraining = false
            return nil
        }
    }
}
