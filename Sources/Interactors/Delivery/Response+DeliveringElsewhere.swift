import Synchronization

// MARK: Delivering elsewhere
//
// A settlement made where no user code may run (a timer firing, a resolver or a queued job released inside the
// user's own lock) is delivered elsewhere. Its handlers bound for a queue must still reach their queue promptly,
// whatever the state of Dispatch's global pool: the library's own thread (`DeadlineTimer`) hands them to their
// queues. Only what runs user code on the delivering thread (immediate handlers, stages, cancellation handlers)
// goes to a global queue, or to a caller blocked on the response, whichever claims it first.

extension Response {
    /// Leaves the delivery claimable (blocked callers are woken to claim it whole) and has the library's thread
    /// hand the handlers bound for a queue to their queues. Call with the lock held; returns with it released.
    @usableFromInline
    func deliverElsewhere() {
        deferDelivery { DeadlineTimer.shared.run { self.handOutQueuedHandlers() } }
    }

    /// On the library's thread: claims the deferred delivery unless someone did; releases the upstream without
    /// running user code (a cancellation that causes is recorded now, so a handler that hears this response
    /// timed out finds the work it let go of cancelled); hands every handler bound for a queue to its queue, in
    /// registration order, those registered meanwhile included; then marks the settlement delivered, or, if
    /// anything left runs user code on the delivering thread, leaves that to a global queue or a blocked caller.
    func handOutQueuedHandlers() {
        lock.lock()
        guard finishPending else { return lock.unlock() }
        finishPending = false
        let upstream = self.upstream.take()
        var batch = handlers.take()
        let outcome = self.outcome!
        lock.unlock()
        upstream?.releaseDemandWithoutUserCode(of: self)
        var immediate = HandlerList<Value>()
        while true {
            let queued = batch.takeQueued()
            batch.forEachConsuming { immediate.append($0) }
            queued.deliver(outcome)
            lock.lock()
            if handlers.isEmpty { break }
            batch = handlers.take()
            lock.unlock()
        }
        if !immediate.isEmpty || (wasCancelled && extras?.hasCancellationWork == true) {
            handlers = immediate  // empty until now: the lock has been held since the last take
            return deferDeliveryToAGlobalQueue()
        }
        phase.store(SettlementPhase.delivered, ordering: .releasing)
        let extras = self.extras.take()
        lock.unlock()
        extras?.wakeWaiters()
        withExtendedLifetime(upstream) {}
    }
}
