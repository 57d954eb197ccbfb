public import Interactors

/// One observer of a store: its closure, its queue, and the states it has yet to hear, in order.
///
/// A `CallbackQueue` promises neither order nor one job at a time (a concurrent `DispatchQueue` does neither),
/// so the subscription keeps its own first-in, first-out mailbox and has at most one drain job on its queue at a
/// time; the drain tells the observer every state waiting, oldest first, and stops when the mailbox is empty.
///
/// `@usableFromInline` and `@inlinable` like the store's hot paths, which queue states here on every update.
@usableFromInline
final class Subscription<State: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every `var` below is read and written only while `lock` is held; the observer is
    // called, and closures are released, outside it.

    @usableFromInline
    enum Delivery {
        /// A state to tell the observer.
        case state(State)
        /// The store was released: release the observer, and run its `onEnd`.
        case end
    }

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var observer: (@Sendable (State) -> Void)?
    @usableFromInline @exclusivity(unchecked) var onEnd: (@Sendable () -> Void)?
    @usableFromInline @exclusivity(unchecked) var pending = FIFO<Delivery>()
    /// A drain job is scheduled or running; whoever finds it `false` and queues something schedules one.
    @usableFromInline @exclusivity(unchecked) var isDraining = true

    @usableFromInline let queue: any CallbackQueue
    /// Which later states the observer hears (all, without one); asked by the updating thread, in the order of the
    /// store's changes, outside every lock.
    @usableFromInline let filter: (@Sendable (State) -> Bool)?

    /// A subscription whose first delivery, `initial`, is already waiting: the caller must schedule a drain.
    init(
        queue: any CallbackQueue,
        initial: State,
        filter: (@Sendable (State) -> Bool)? = nil,
        observer: @escaping @Sendable (State) -> Void,
        onEnd: (@Sendable () -> Void)?
    ) {
        self.queue = queue
        self.filter = filter
        self.observer = observer
        self.onEnd = onEnd
        pending.append(.state(initial))
    }

    /// Queues `delivery` unless the filter turns a state away; returns whether the caller must schedule a drain.
    /// Nothing is queued once cancelled.
    @inlinable
    func enqueue(_ delivery: Delivery) -> Bool {
        if let filter, case .state(let state) = delivery, !filter(state) { return false }
        lock.lock()
        defer { lock.unlock() }
        guard observer != nil else { return false }
        pending.append(delivery)
        guard !isDraining else { return false }
        isDraining = true
        return true
    }

    @inlinable
    func scheduleDrain() {
        queue.schedule { [self] in drain() }
    }

    /// Stops deliveries, drops the states waiting and releases the closures (outside the lock: releasing a
    /// closure may release user objects, whose deinit is user code). A delivery already running finishes.
    func cancel() {
        let released = lock.withLock { () -> (Any?, Any?, FIFO<Delivery>) in
            defer {
                observer = nil
                onEnd = nil
                pending = FIFO()
            }
            return (observer, onEnd, pending)
        }
        withExtendedLifetime(released) {}
    }

    /// What a drain does next, worked out under the lock and done outside it.
    @usableFromInline
    enum Step {
        case tell(@Sendable (State) -> Void, State)
        /// The store is gone: run `onEnd` (the closures are released with the step).
        case end((@Sendable (State) -> Void)?, (@Sendable () -> Void)?)
    }

    @inlinable
    func drain() {
        while let step = nextStep() {
            switch step {
            case .tell(let observer, let state):
                observer(state)
            case .end(_, let onEnd):
                onEnd?()
            }
        }
    }

    @inlinable
    func nextStep() -> Step? {
        lock.lock()
        defer { lock.unlock() }
        while let delivery = pending.popFirst() {
            switch delivery {
            case .state(let state):
                guard let observer else { continue }
                return .tell(observer, state)
            case .end:
                defer {
                    observer = nil
                    onEnd = nil
                    pending = FIFO()
                }
                return .end(observer, onEnd)
            }
        }
        isDraining = false
        return nil
    }
}
