public import Synchronization

// MARK: Registering

extension Response {
    /// Adds a handler, or delivers it now if the response has settled.
    @inlinable
    func addHandler(_ callback: Callback<Value>, on queue: QueueReference) {
        add(Handler(callback, on: queue))
    }

    /// Adds a handler for a queue whose type the caller knows: specialised, the checks for the library's own
    /// queues fold away.
    @inlinable
    func addHandler<Queue: CallbackQueue>(_ callback: Callback<Value>, onKnown queue: Queue) {
        if Queue.self == ImmediateCallbackQueue.self {
            add(Handler(immediate: callback))
        } else {
            add(Handler(callback, on: QueueReference(queue)))
        }
    }

    /// Adds a handler on behalf of a derived response, counting it as a consumer while this one is pending.
    @inlinable
    func addConsumingHandler(_ handler: consuming Handler<Value>) {
        add(handler, countingConsumer: true)
    }

    /// Adds `handler`, or delivers it now if the response's settlement has been delivered. A handler added
    /// while the settlement is being delivered joins the late ones, and the delivering thread runs it after the
    /// earlier ones.
    @inlinable
    func add(_ handler: consuming Handler<Value>, countingConsumer: Bool = false) {
        // Delivered: the outcome never changes again, so no lock is needed to read it.
        if isDelivered { return handler.deliver(outcome) }
        lock.lock()
        let current = state.load(ordering: .relaxed)
        switch ResponseState.phase(current) {
        case ResponseState.pending:
            if countingConsumer { state.store(ResponseState.addingConsumer(current), ordering: .relaxed) }
            appendPending(handler)
            lock.unlock()
        case ResponseState.delivered:
            lock.unlock()
            handler.deliver(outcome)
        default:
            addLate(handler)
        }
    }

    /// Appends a handler to a pending response. Call with the lock held.
    @inlinable
    func appendPending(_ handler: consuming Handler<Value>) {
        if more == nil, !slot.hasFirst { return setFirstPending(handler) }
        if let index = extras?.ownerIndex, let owner = handler.owner { index.record(owner, at: more?.count ?? 0) }
        if more == nil { more = [handler] } else { more!.append(handler) }
    }

    /// Adds a handler while the settlement is being delivered, or waits to be: the delivering thread runs it
    /// before it closes the settlement, unless it closed already, and then this thread runs it. Call with the lock
    /// held; returns with it released.
    @usableFromInline
    func addLate(_ handler: consuming Handler<Value>) {
        if more == nil { more = [handler] } else { more!.append(handler) }
        let before = state.bitwiseOr(ResponseState.closesSlowly, ordering: .acquiringAndReleasing).oldValue
        guard ResponseState.phase(before) == ResponseState.delivered else { return lock.unlock() }
        // Closed between this thread's look and its flag: nobody else will deliver them.
        let late = more.take()
        lock.unlock()
        HandlerList(first: nil, more: late).deliver(outcome)
    }
}
