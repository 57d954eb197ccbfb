/// Handlers taken out of a response to be delivered or released: the first (stored inline in the response while
/// it is pending, as most responses have one) and the rest, in registration order.
@usableFromInline
struct HandlerList<Value: Sendable>: Sendable {
    @usableFromInline var first: Handler<Value>?
    /// `nil` rather than empty: most lists never need it, and a `nil` costs no reference counting.
    @usableFromInline var more: [Handler<Value>]?

    @inlinable
    init() {}

    @inlinable
    init(first: consuming Handler<Value>?, more: consuming [Handler<Value>]?) {
        self.first = first
        self.more = more
    }

    /// Whether the list holds no handler.
    @inlinable
    var isEmpty: Bool {
        if case .some = first { return false }
        guard let more else { return true }
        return more.isEmpty
    }

    @inlinable
    mutating func append(_ handler: consuming Handler<Value>) {
        // `consuming`: the handler moves into its slot instead of being copied (a retain per closure it holds).
        if case .none = first, more == nil {
            first = handler
        } else if case .none = more {
            more = [handler]
        } else {
            more!.append(handler)
        }
    }

    /// Appends every handler of `other`, in order.
    @inlinable
    mutating func append(contentsOf other: consuming HandlerList<Value>) {
        other.forEachConsuming { append($0) }
    }

    @inlinable
    consuming func forEachConsuming(_ body: (consuming Handler<Value>) -> Void) {
        if let first = first.take() { body(first) }
        if let more = more.take() {
            for handler in more { body(handler) }
        }
    }

    @inlinable
    func forEach(_ body: (Handler<Value>) -> Void) {
        if let first { body(first) }
        if let more {
            for handler in more { body(handler) }
        }
    }

    // MARK: Delivering

    /// Runs the handlers a settlement took out: the first alone without building a list (the usual case).
    @inlinable
    static func deliver(
        first: consuming Handler<Value>?,
        more: consuming [Handler<Value>]?,
        _ outcome: Result<Value, any Error>
    ) {
        guard let more else {
            if let first { first.deliver(outcome) }
            return
        }
        HandlerList(first: first, more: more).deliver(outcome)
    }

    /// Runs every handler once with `outcome`.
    ///
    /// Handlers for one queue keep their registration order and reach that queue in a single hop; handlers to
    /// run immediately run last, on this thread, so a slow one does not hold back the others' hops.
    @inlinable
    func deliver(_ outcome: Result<Value, any Error>) {
        guard let more else {
            first?.deliver(outcome)
            return
        }
        // The usual shapes: every handler on one queue (one hop carrying the list), or all immediate.
        switch sharedTarget(more) {
        case .immediate:
            invokeAll(with: outcome)
        case .queue(let queue):
            let list = self
            queue.queue.schedule { list.invokeAll(with: outcome) }
        case .mixed:
            deliverMixed(outcome)
        }
    }

    /// Where every handler goes, if they all go to the same place.
    @usableFromInline
    enum SharedTarget {
        case immediate
        case queue(QueueReference)
        case mixed
    }

    @inlinable
    func sharedTarget(_ more: [Handler<Value>]) -> SharedTarget {
        var shared: QueueReference?
        var immediate = false
        func admit(_ handler: Handler<Value>) -> Bool {
            switch handler.target {
            case .removed:
                return true
            case .immediate, .owned:
                immediate = true
                return shared == nil
            case .queue(let queue):
                guard !immediate else { return false }
                guard let current = shared else {
                    shared = queue
                    return true
                }
                return current.isSameQueue(as: queue)
            }
        }
        if let first, !admit(first) { return .mixed }
        for handler in more where !admit(handler) { return .mixed }
        if let shared { return .queue(shared) }
        return .immediate
    }

    /// Delivers handlers bound for several queues: one hop per queue, grouped by the queue each delivery really
    /// goes to (`.default` and the queue it stands for are one queue), then the immediate ones on this thread.
    @usableFromInline
    func deliverMixed(_ outcome: Result<Value, any Error>) {
        var queued = QueuedDeliveries<Value>(expected: (more?.count ?? 0) + 1)
        var immediate: [Callback<Value>] = []
        forEach { handler in
            if handler.isRemoved { return }
            guard let queue = handler.deliveryQueue else { return immediate.append(handler.callback) }
            queued.append(handler.callback, to: queue)
        }
        queued.deliver(outcome)
        for callback in immediate { callback.invoke(with: outcome) }
    }

    /// Moves out the handlers that go to a queue, grouped by the queue each delivery goes to (resolved once, here:
    /// a `.default` switched to `.immediate` later cannot make them run on the delivering thread), leaving the
    /// immediate ones (which run user code on the delivering thread) in place, in order; handlers taken back are
    /// dropped.
    mutating func takeQueued() -> QueuedDeliveries<Value> {
        var queued = QueuedDeliveries<Value>(expected: (more?.count ?? 0) + 1)
        var kept = HandlerList()
        var all = HandlerList()
        swap(&all, &self)
        all.forEachConsuming { handler in
            if handler.isRemoved { return }
            if let queue = handler.deliveryQueue {
                queued.append(handler.callback, to: queue)
            } else {
                kept.append(handler)
            }
        }
        self = kept
        return queued
    }

    @inlinable
    func invokeAll(with outcome: Result<Value, any Error>) {
        if let first { first.callback.invoke(with: outcome) }
        if let more {
            for index in more.indices { more[index].callback.invoke(with: outcome) }
        }
    }
}

/// Handlers bound for queues, grouped by queue, each group in registration order and the groups in the order their
/// queues first appear: one hop per queue. Finding a handler's group costs the same however many queues there are
/// (a few are compared in turn, more are looked up by identity), so a settlement's cost grows linearly with its
/// handlers, whatever number of distinct queues they name.
@usableFromInline
struct QueuedDeliveries<Value: Sendable> {
    /// A queue and its handlers: the first inline, so that the usual group of one handler allocates no array.
    private struct Group {
        let queue: any CallbackQueue
        let first: Callback<Value>
        var more: [Callback<Value>]?
    }

    /// Past this many queues, groups are found through ``index`` rather than by comparing each.
    private static var linearSearchLimit: Int { 8 }

    private var groups: [Group] = []
    private var index: [ObjectIdentifier: Int] = [:]
    /// How many handlers may come, to size the index once when it is built.
    private let expected: Int

    /// Groups for up to about `expected` handlers (a hint: more still fit).
    init(expected: Int = 0) {
        self.expected = expected
    }

    /// Adds `callback` to `queue`'s group.
    mutating func append(_ callback: Callback<Value>, to queue: any CallbackQueue) {
        if let group = group(of: queue) {
            if groups[group].more == nil {
                groups[group].more = [callback]
            } else {
                groups[group].more!.append(callback)
            }
            return
        }
        if groups.isEmpty { groups.reserveCapacity(min(expected, 64)) }
        groups.append(Group(queue: queue, first: callback))
        if groups.count == Self.linearSearchLimit {
            index.reserveCapacity(max(expected, Self.linearSearchLimit))
            for (position, group) in groups.enumerated() { index[ObjectIdentifier(group.queue)] = position }
        } else if groups.count > Self.linearSearchLimit {
            index[ObjectIdentifier(queue)] = groups.count - 1
        }
    }

    private func group(of queue: any CallbackQueue) -> Int? {
        if groups.count >= Self.linearSearchLimit { return index[ObjectIdentifier(queue)] }
        return groups.firstIndex { $0.queue === queue }
    }

    /// Hands each group to its queue, in one job.
    func deliver(_ outcome: Result<Value, any Error>) {
        for group in groups {
            let first = group.first
            guard let more = group.more else {
                group.queue.schedule { first.invoke(with: outcome) }
                continue
            }
            group.queue.schedule {
                first.invoke(with: outcome)
                for callback in more { callback.invoke(with: outcome) }
            }
        }
    }
}
