import Synchronization

// MARK: Delivering elsewhere
//
// A settlement made where no user code may run (a timer firing, a resolver or a queued job released inside the
// user's own lock) is delivered elsewhere. Its handlers bound for a queue must still reach their queue promptly,
// whatever the state of Dispatch's global pool: the library's own thread (`DeadlineTimer`) hands them to their
// queues. Only what runs user code on the delivering thread (immediate handlers, stages, cancellation handlers)
// goes to a global queue, or to a caller blocked on the response, whichever claims it first.

extension Response {
    /// Has the library's thread hand the handlers bound for a queue to their queues. The delivery is deferred
    /// already (claimable: blocked callers were woken to claim it whole).
    @usableFromInline
    func deliverElsewhere() {
        DeadlineTimer.shared.run { self.handOutQueuedHandlers() }
    }

    /// On the library's thread: claims the deferred delivery unless someone did; releases the upstream without
    /// running user code (a cancellation that causes is recorded now, so a handler that hears this response
    /// timed out finds the work it let go of cancelled); hands every handler bound for a queue to its queue, in
    /// registration order, those registered meanwhile included; then marks the settlement delivered, or, if
    /// anything left runs user code on the delivering thread, leaves that to a global queue or a blocked caller.
    func handOutQueuedHandlers() {
        lock.lock()
        guard var finish = claimDeferredDelivery() else { return lock.unlock() }
        let upstream = finish.upstream.take()
        var batch = HandlerList<Value>()
        swap(&batch, &finish.handlers)
        lock.unlock()
        if finish.releasesUpstream { upstream?.releaseDemandWithoutUserCode(of: self) }
        var immediate = HandlerList<Value>()
        while true {
            let queued = batch.takeQueued()
            immediate.append(contentsOf: batch)
            queued.deliver(outcome)
            lock.lock()
            guard let late = more.take() else { break }
            batch = HandlerList(first: nil, more: late)
            lock.unlock()
        }
        if !immediate.isEmpty || finish.cancellationHandlers?.isEmpty == false {
            finish.handlers = immediate
            finish.releasesUpstream = false  // released above
            return deferDeliveryToAGlobalQueue(finish)
        }
        markDelivered()
        withExtendedLifetime(upstream) {}
    }
}
