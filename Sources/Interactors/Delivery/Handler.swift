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
        switch self {
        case .success(let body):
            if case .success(let value) = outcome { body(value) }
        case .failure(let body):
            if case .failure(let error) = outcome { body(error) }
        case .result(let body):
            body(outcome)
        }
    }

    /// A callback that does nothing, left where an owner took its handler back; it captures nothing, so it costs
    /// no allocation.
    @inlinable
    static var nothing: Callback {
        .result { _ in }
    }
}

/// Where a handler runs, and for the library's own stages, who owns it.
///
/// `owned` handlers run immediately, like `immediate` ones, and carry the consumer (a derived response, a
/// combinator, an awaiting task) that added them, so that the consumer can take them back out when it lets go
/// of the upstream before the upstream settles. The owner rides in the case payload, and a queue is a
/// ``QueueReference``: a target is one word.
@usableFromInline
enum HandlerTarget: Sendable {
    case immediate
    case owned(by: HandlerOwner)
    case queue(QueueReference)
    /// Taken back by its owner: delivering it does nothing. Left in place in a long list so that taking a handler
    /// back costs the same however many there are (see `HandlerOwnerIndex`).
    case removed
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
    @usableFromInline var target: HandlerTarget
    @usableFromInline var callback: Callback<Value>

    @inlinable
    init(_ callback: Callback<Value>, on queue: QueueReference) {
        self.target = queue.isImmediate ? .immediate : .queue(queue)
        self.callback = callback
    }

    @inlinable
    init(immediate callback: Callback<Value>) {
        self.target = .immediate
        self.callback = callback
    }

    /// An immediate handler that `owner` may take back with `Response.takeDemand(of:)`.
    @inlinable
    init(immediate callback: Callback<Value>, ownedBy owner: AnyObject) {
        self.target = .owned(by: HandlerOwner(owner))
        self.callback = callback
    }

    /// The queue the handler runs on; `nil` for immediately (or for a handler taken back).
    @inlinable
    var queue: QueueReference? {
        if case .queue(let queue) = target { return queue }
        return nil
    }

    /// Where the handler's delivery goes: its queue, with `.default` resolved to the queue it stands for now;
    /// `nil` to run immediately.
    @usableFromInline
    var deliveryQueue: (any CallbackQueue)? {
        guard case .queue(let queue) = target else { return nil }
        return queue.deliveryQueue
    }

    /// The owner, for an owned handler.
    @inlinable
    var owner: AnyObject? {
        if case .owned(let owner) = target { return owner.object }
        return nil
    }

    /// Whether `owner` added this handler.
    @inlinable
    func isOwned(by owner: AnyObject) -> Bool {
        if case .owned(let candidate) = target { return candidate.object === owner }
        return false
    }

    /// Whether its owner took it back.
    @inlinable
    var isRemoved: Bool {
        if case .removed = target { return true }
        return false
    }

    /// What is left in a list where an owner took its handler back.
    @inlinable
    static var removed: Handler {
        var handler = Handler(immediate: .nothing)
        handler.target = .removed
        return handler
    }

    /// Runs this one handler: now, or in one hop to its queue.
    @inlinable
    func deliver(_ outcome: Result<Value, any Error>) {
        switch target {
        case .immediate, .owned:
            callback.invoke(with: outcome)
        case .queue(let queue):
            let callback = self.callback
            queue.queue.schedule { callback.invoke(with: outcome) }
        case .removed:
            break
        }
    }
}
