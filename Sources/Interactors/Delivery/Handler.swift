// The handler storage is `@usableFromInline` and its methods `@inlinable`: registering and delivering are the
// hottest paths in the library, and specialised in the caller's module they avoid generic metadata look-ups,
// which cost more than the work itself.

/// What a handler wants to hear. One enum rather than wrapping every handler into a `Result` closure, so adding
/// a handler allocates nothing beyond what the user's own closure captures.
@usableFromInline
enum Callback<Value: Sendable>: Sendable {
    case success(@Sendable (Value) -> Void)
    case failure(@Sendable (any Error) -> Void)
    case result(@Sendable (Result<Value, any Error>) -> Void)

    @inlinable @inline(__always)
    func invoke(with outcome: Result<Value, any Error>) {
        switch (self, outcome) {
        case (.success(let body), .success(let value)): body(value)
        case (.failure(let body), .failure(let error)): body(error)
        case (.result(let body), _): body(outcome)
        case (.success, .failure), (.failure, .success): break
        }
    }
}

/// Where a handler runs, and for the library's own stages, who owns it.
///
/// `owned` handlers run immediately, like `immediate` ones, and carry the consumer (a derived response, a
/// combinator, an awaiting task) that added them, so that the consumer can take them back out when it lets go
/// of the upstream before the upstream settles. The owner rides in the case payload: a handler stays as small
/// as a bare `(any CallbackQueue)?` and a response stays one small allocation.
@usableFromInline
enum HandlerTarget: Sendable {
    case immediate
    case owned(by: HandlerOwner)
    case queue(any CallbackQueue)
}

/// The identity of a handler's owner, compared and never used otherwise: unretained, so adding a stage costs no
/// reference counting (the stage's closure holds its owner anyway).
@usableFromInline
struct HandlerOwner: @unchecked Sendable {
    // @unchecked: only the address is ever read, to compare identities.
    @usableFromInline unowned(unsafe) let object: AnyObject

    @inlinable
    init(_ object: AnyObject) { self.object = object }
}

/// A callback and where to run it. Immediate handlers run on the delivering thread: the common internal case
/// gets no existential call and no closure allocation.
@usableFromInline
struct Handler<Value: Sendable>: Sendable {
    @usableFromInline let target: HandlerTarget
    @usableFromInline let callback: Callback<Value>

    @inlinable
    init(_ callback: Callback<Value>, on queue: any CallbackQueue) {
        self.target = queue === ImmediateCallbackQueue.shared ? .immediate : .queue(queue)
        self.callback = callback
    }

    @inlinable
    init(immediate callback: Callback<Value>) {
        self.target = .immediate
        self.callback = callback
    }

    /// An immediate handler that `owner` may take back with ``HandlerList/remove(ownedBy:)``.
    @inlinable
    init(immediate callback: Callback<Value>, ownedBy owner: AnyObject) {
        self.target = .owned(by: HandlerOwner(owner))
        self.callback = callback
    }

    /// The queue the handler runs on; `nil` for immediately.
    @inlinable
    var queue: (any CallbackQueue)? {
        if case .queue(let queue) = target { return queue }
        return nil
    }

    /// Where the handler's delivery goes: its queue, with `.default` resolved to the queue it stands for now, so
    /// that handlers on `.default` and on that queue keep one registration order; `nil` to run immediately.
    @usableFromInline
    var deliveryQueue: (any CallbackQueue)? {
        guard case .queue(let queue) = target else { return nil }
        guard queue === DefaultCallbackQueue.shared else { return queue }
        let current = DefaultCallbackQueue.current
        return current === ImmediateCallbackQueue.shared ? nil : current
    }

    /// Whether `owner` added this handler.
    @inlinable
    func isOwned(by owner: AnyObject) -> Bool {
        if case .owned(let candidate) = target { return candidate.object === owner }
        return false
    }

    /// Runs this one handler: now, or in one hop to its queue.
    @inlinable
    func deliver(_ outcome: Result<Value, any Error>) {
        guard let queue else { return callback.invoke(with: outcome) }
        let callback = self.callback
        queue.schedule { callback.invoke(with: outcome) }
    }
}

/// The handlers of a pending response: the first stored inline (most responses have one), an array only for
/// more.
@usableFromInline
struct HandlerList<Value: Sendable>: Sendable {
    @usableFromInline var first: Handler<Value>?
    /// `nil` rather than empty: most lists never need it, and a `nil` costs no reference counting.
    @usableFromInline var more: [Handler<Value>]?

    @inlinable
    init() {}

    @inlinable
    mutating func append(_ handler: consuming Handler<Value>) {
        // `consuming`: the handler moves into its slot instead of being copied (a retain per closure it holds).
        if case .none = first {
            first = handler
        } else {
            if case .none = more {
                more = [handler]
            } else {
                more!.append(handler)
            }
        }
    }

    /// Moves the handlers out, leaving the list empty.
    @inlinable
    mutating func take() -> HandlerList<Value> {
        var taken = HandlerList()
        swap(&taken, &self)
        return taken
    }

    /// Whether the list holds no handler.
    @inlinable
    var isEmpty: Bool {
        if case .none = first { return true }
        return false
    }

    /// Moves out the handlers `owner` added, keeping the others in order; the caller releases what it gets
    /// back after the lock, since a handler's captures may run user code when freed.
    @inlinable
    mutating func remove(ownedBy owner: AnyObject) -> HandlerList<Value> {
        var removed = HandlerList()
        var kept = HandlerList()
        var all = take()
        all.forEachConsuming { handler in
            if handler.isOwned(by: owner) { removed.append(handler) } else { kept.append(handler) }
        }
        self = kept
        return removed
    }

    @inlinable
    mutating func forEachConsuming(_ body: (consuming Handler<Value>) -> Void) {
        if let first = first.take() { body(first) }
        if let more = more.take() {
            for handler in more { body(handler) }
        }
    }

    /// Runs every handler once with `outcome`.
    ///
    /// Handlers for one queue keep their registration order and reach that queue in a single hop; handlers to
    /// run immediately run last, on this thread, so a slow one does not hold back the others' hops.
    @inlinable
    func deliver(_ outcome: Result<Value, any Error>) {
        guard let first else { return }
        guard let more else { return first.deliver(outcome) }  // never empty once made

        // The usual shapes: every handler on one queue (one hop carrying the list), or all immediate.
        let firstQueue = first.queue
        if more.allSatisfy({ $0.queue === firstQueue }) {
            guard let queue = firstQueue else { return invokeAll(with: outcome) }
            let list = self
            queue.schedule { list.invokeAll(with: outcome) }
            return
        }

        deliverMixed(outcome)
    }

    /// Delivers handlers bound for several queues: one hop per queue, grouped by the queue each delivery really
    /// goes to (`.default` and the queue it stands for are one queue), then the immediate ones on this thread.
    @usableFromInline
    func deliverMixed(_ outcome: Result<Value, any Error>) {
        var groups: [(queue: any CallbackQueue, callbacks: [Callback<Value>])] = []
        var immediate: [Callback<Value>] = []
        forEach { handler in
            guard let queue = handler.deliveryQueue else { return immediate.append(handler.callback) }
            if let index = groups.firstIndex(where: { $0.queue === queue }) {
                groups[index].callbacks.append(handler.callback)
            } else {
                groups.append((queue, [handler.callback]))
            }
        }
        for (queue, callbacks) in groups {
            queue.schedule {
                for callback in callbacks { callback.invoke(with: outcome) }
            }
        }
        for callback in immediate { callback.invoke(with: outcome) }
    }

    /// Moves out the handlers that go to a queue, in order, leaving the immediate ones (which run user code on
    /// the delivering thread) in place, in order.
    mutating func takeQueued() -> HandlerList<Value> {
        var queued = HandlerList()
        var kept = HandlerList()
        var all = take()
        all.forEachConsuming { handler in
            if handler.deliveryQueue == nil { kept.append(handler) } else { queued.append(handler) }
        }
        self = kept
        return queued
    }

    @inlinable
    func invokeAll(with outcome: Result<Value, any Error>) {
        forEach { $0.callback.invoke(with: outcome) }
    }

    @inlinable
    func forEach(_ body: (Handler<Value>) -> Void) {
        if let first { body(first) }
        for handler in more ?? [] { body(handler) }
    }
}
