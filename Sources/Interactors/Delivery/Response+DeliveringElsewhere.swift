import Synchronization

// MARK: Delivering elsewhere
//
// A settlement made where no user code may run (a timer firing, a resolver or a queued job released inside the
// user's own lock) is delivered elsewhere, and never waits for Dispatch's global pool. Its handlers bound for a
// queue must reach their queue promptly: the library's timer thread (`DeadlineTimer`) hands them to their queues,
// each `.default` resolved once. What runs user code on the delivering thread (cancellation handlers, stages,
// immediate handlers) goes to the library's delivery threads (`DeliveryThreads`), or to a caller blocked on the
// response or downstream of it, whichever claims it first.

extension Response {
    /// Has the library's timer thread hand the handlers bound for a queue to their queues. The delivery is
    /// deferred already (claimable: blocked callers were woken to claim it whole).
    @usableFromInline
    func deliverElsewhere() {
        DeadlineTimer.shared.run { self.handOutQueuedHandlers() }
    }

    /// On the library's timer thread: claims the deferred delivery unless someone did. With cancellation handlers,
    /// which run first and are user code, the whole delivery goes to the delivery threads, in its documented
    /// order. Otherwise releases the upstream without running user code (a cancellation that causes is recorded
    /// now, so a handler that hears this response timed out finds the work it let go of cancelled); hands every
    /// handler bound for a queue to its queue, in registration order, those registered meanwhile included; then
    /// marks the settlement delivered, or, if immediate handlers are left, leaves them to the delivery threads or
    /// a blocked caller.
    func handOutQueuedHandlers() {
        lock.lock()
        guard var finish = claimDeferredDelivery() else { return lock.unlock() }
        if finish.cancellationHandlers?.isEmpty == false { return deferDeliveryToTheDeliveryThreads(finish) }
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
        if !immediate.isEmpty {
            finish.handlers = immediate
            finish.releasesUpstream = false  // released above
            return deferDeliveryToTheDeliveryThreads(finish)
        }
        markDelivered()
        withExtendedLifetime(upstream) {}
    }
}
