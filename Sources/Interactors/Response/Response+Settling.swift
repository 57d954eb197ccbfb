import Dispatch
public import Synchronization

// MARK: Settling
//
// A settlement has two steps. Recording the outcome happens at once, under the lock, and makes `isDone` true.
// Delivering it (cancellation handlers, then releasing the upstream, then the handlers in registration order)
// runs after the lock, on the settling thread; then the settlement is closed: marked delivered, waking blocked
// callers. A handler registered while the delivery runs joins `more`, and the delivering thread delivers it,
// after the earlier ones, before it closes, so registration order holds even when registration races settlement.
// A handler registered after the close is delivered by the registering thread.
//
// Closing needs no lock in the usual case: one compare-and-exchange of `state` from the settled word the
// settling thread published to the same word marked delivered. Anything that joined meanwhile (a late handler,
// a blocked caller, extras to drop) changed the word, so the exchange fails and the close takes the lock
// (`closeSlowly()`). See `ResponseState`.
//
// Delivery can be deferred: past a depth of nested settlements (to the thread's `DeliveryDrain`), or elsewhere
// when the settling thread must not run user code (a dropped resolver, a timer; see
// `Response+DeliveringElsewhere.swift`). Whoever claims a deferred delivery first runs it: the drain, the
// library's timer or delivery threads, or a caller blocked on the response or on one derived from it, who then
// need not wait for the settling thread to unwind.

/// Where a settlement's delivery runs.
@usableFromInline
enum DeliveryRoute {
    /// On the settling thread, nested, unless the thread is too deep in nested settlements already.
    case settlingThread
    /// Never on the settling thread: the library's timer thread hands the handlers bound for a queue to their
    /// queues at once, and what runs user code on the delivering thread goes to the library's delivery threads or
    /// a blocked caller, whichever claims it first (see `DeliveryThreads`).
    case elsewhere
}

extension Response: DeferredSettlement {
    /// Settles the response with `outcome` unless it is settled already; returns whether this call settled it.
    ///
    /// `upstreamIsSettled` says the caller is a stage run by the upstream's settlement, so releasing demand on
    /// the upstream would be a no-op; skipping it saves a lock round trip per stage. `unlessConsumed` leaves a
    /// response that has a consumer pending (a cancellation decided when the last one let go, which another
    /// joined since). A cancellation leaves a response whose work has committed to its outcome (see
    /// `Response+Committing.swift`).
    @inlinable
    @discardableResult
    func settle(
        _ outcome: Result<Value, any Error>,
        cancelling: Bool = false,
        upstreamIsSettled: Bool = false,
        unlessConsumed: Bool = false,
        route: DeliveryRoute = .settlingThread
    ) -> Bool {
        let drain = DeliveryDrain.current
        lock.lock()
        let pending = state.load(ordering: .relaxed)
        guard ResponseState.phase(pending) == ResponseState.pending,
            !unlessConsumed || ResponseState.consumers(pending) == 0,
            !cancelling || pending & ResponseState.refusesCancellation == 0
        else {
            lock.unlock()
            return false
        }
        var settled = ResponseState.state(pending, phase: ResponseState.settled)
        if cancelling { settled |= ResponseState.cancelled }
        let (upstream, first) = takePending(storing: outcome)
        // A stage settling this response with the outcome of work that committed to it: the answer is that
        // work's, and a cancellation racing its delivery downstream must not replace it (`Response+Committing`).
        if upstreamIsSettled, let upstream, upstream.refusesCancellation {
            settled |= ResponseState.refusesCancellation
        }
        // A cancellation on its way here (marked by its walk) that reached the work first, whose cancellation then
        // came down the stages: this response is cancelled, as the canceller is about to make it.
        if pending & ResponseState.cancellationIntended != 0, upstreamIsSettled, case .failure(let error) = outcome,
            error is CancellationError
        {
            settled |= ResponseState.cancelled
        }
        let more = self.more.take()
        guard extras == nil, case .settlingThread = route, !drain.isFull else {
            let finish = Finish(
                handlers: HandlerList(first: first, more: more),
                upstream: upstream,
                releasesUpstream: !upstreamIsSettled
            )
            settleRarely(finish, settled: settled, cancelling: cancelling, route: route, drain: drain)
            return true
        }
        state.store(settled, ordering: .releasing)
        lock.unlock()
        drain.enter()
        // Before the handlers: one that hears this response was cancelled or timed out finds the work it let go
        // of cancelled already, if nothing else needed it.
        if !upstreamIsSettled, let upstream { upstream.releaseDemand(of: self) }
        HandlerList.deliver(first: consume first, more: consume more, outcome)
        close(from: settled)
        drain.leave()
        return true
    }

    /// The rest of a settlement that has extras (cancellation handlers to run, waiters to wake), or whose delivery
    /// is deferred. Out of line: the common settlement has none of it. Call with the lock held.
    @usableFromInline
    func settleRarely(
        _ finish: consuming Finish,
        settled: UInt32,
        cancelling: Bool,
        route: DeliveryRoute,
        drain: Unmanaged<DeliveryDrain>
    ) {
        var settled = settled
        if let extras {
            settled |= ResponseState.closesSlowly
            if cancelling { finish.cancellationHandlers = extras.takeCancellationHandlers() }
        }
        if case .elsewhere = route {
            deferDelivery(of: finish, settled: settled)
            return deliverElsewhere()
        }
        if drain.isFull {
            deferDelivery(of: finish, settled: settled)
            return drain.takeUnretainedValue().enqueue(self)
        }
        state.store(settled, ordering: .releasing)
        lock.unlock()
        drain.enter()
        deliver(finish, outcome: outcome)
        close(from: settled)
        drain.leave()
    }

    /// What a settlement takes out of the response to deliver, released after the lock.
    @usableFromInline
    struct Finish {
        @usableFromInline var handlers: HandlerList<Value>
        @usableFromInline var cancellationHandlers: [@Sendable () -> Void]?
        @usableFromInline var upstream: (any UpstreamLink)?
        /// Not when a stage run by the upstream's own settlement settles this response: the upstream is settled,
        /// and releasing its demand would be a no-op.
        @usableFromInline var releasesUpstream: Bool

        @inlinable
        init(
            handlers: consuming HandlerList<Value>,
            cancellationHandlers: [@Sendable () -> Void]? = nil,
            upstream: consuming (any UpstreamLink)?,
            releasesUpstream: Bool
        ) {
            self.handlers = handlers
            self.cancellationHandlers = cancellationHandlers
            self.upstream = upstream
            self.releasesUpstream = releasesUpstream
        }
    }

    /// Runs a settlement's delivery, without the lock: cancellation handlers, the release of the upstream, then
    /// the handlers.
    @inlinable
    func deliver(_ finish: borrowing Finish, outcome: Result<Value, any Error>) {
        if let cancellationHandlers = finish.cancellationHandlers {
            for handler in cancellationHandlers { handler() }
        }
        // Before the handlers: one that hears this response was cancelled or timed out finds the work it let go
        // of cancelled already, if nothing else needed it.
        if finish.releasesUpstream, let upstream = finish.upstream { upstream.releaseDemand(of: self) }
        finish.handlers.deliver(outcome)
    }

    /// Marks the settlement delivered: with one compare-and-exchange from `settled`, the word this thread
    /// published, if nothing joined since; else under the lock, delivering the late handlers first.
    @inlinable
    func close(from settled: UInt32) {
        if settled & ResponseState.closesSlowly == 0,
            state.compareExchange(
                expected: settled,
                desired: ResponseState.state(settled, phase: ResponseState.delivered),
                ordering: .releasing
            ).exchanged
        {
            return
        }
        closeSlowly()
    }

    /// Delivers the handlers registered while the settlement was delivered, until none is left, then marks it
    /// delivered, drops the extras and wakes blocked callers.
    @usableFromInline
    func closeSlowly() {
        while true {
            lock.lock()
            if let late = more.take() {
                lock.unlock()
                HandlerList(first: nil, more: late).deliver(outcome)
                continue
            }
            return markDelivered()
        }
    }

    /// Marks the settlement delivered, drops the extras and wakes blocked callers. Call with the lock held and no
    /// late handler left; returns with it released.
    @usableFromInline
    func markDelivered() {
        let closed = ResponseState.state(state.load(ordering: .relaxed), phase: ResponseState.delivered)
        state.store(closed, ordering: .releasing)
        let extras = self.extras.take()
        lock.unlock()
        extras?.wakeWaiters()
        if closed & ResponseState.hasParkedWaiters != 0 { ParkingWord.wakeAll(state) }
    }

    // MARK: Deferring

    /// Leaves the delivery to whoever claims it first: the handlers and the upstream wait in the extras, and
    /// blocked callers are woken to claim it themselves, those blocked on it and those blocked downstream of it,
    /// who watch it (`BlockedCallerWatch`) and find it through their upstreams (a caller blocked on a
    /// `timeout(...).map` claims the timed response's delivery, which settles the `map`). Call with the lock held;
    /// returns with it released.
    @usableFromInline
    func deferDelivery(of finish: consuming Finish, settled: UInt32) {
        let extras = makeExtras()
        extras.deferred = finish
        let deferred = settled | ResponseState.finishPending | ResponseState.closesSlowly
        state.store(deferred, ordering: .releasing)
        let waiters = extras.waiters
        lock.unlock()
        for waiter in waiters { waiter.signal() }
        if deferred & ResponseState.hasParkedWaiters != 0 { ParkingWord.wakeAll(state) }
    }

    /// Hands the delivery to the library's delivery threads, and to blocked callers. Call with the lock held, with
    /// the delivery claimed (`finish`); returns with it released.
    @usableFromInline
    func deferDeliveryToTheDeliveryThreads(_ finish: consuming Finish) {
        let current = state.load(ordering: .relaxed)
        deferDelivery(of: finish, settled: current)
        DeliveryThreads.run { self.finishSettlement() }
    }

    /// Delivers a deferred settlement unless someone already claimed it. Called by a drain, a queue, or a
    /// blocked caller; returns whether this call delivered it.
    @usableFromInline
    @discardableResult
    func finishSettlement() -> Bool {
        lock.lock()
        guard let finish = claimDeferredDelivery() else {
            lock.unlock()
            return false
        }
        let claimed = state.load(ordering: .relaxed)
        lock.unlock()
        let drain = DeliveryDrain.current
        drain.enter()
        deliver(finish, outcome: outcome)
        close(from: claimed)
        drain.leave()
        return true
    }

    /// Claims a deferred delivery: what the settlement left to deliver, with the handlers registered since
    /// after it; `nil` if someone claimed it already. Call with the lock held.
    @usableFromInline
    func claimDeferredDelivery() -> Finish? {
        let current = state.load(ordering: .relaxed)
        guard current & ResponseState.finishPending != 0, var finish = extras?.deferred.take() else { return nil }
        state.store(current & ~ResponseState.finishPending, ordering: .relaxed)
        if let late = more.take() { finish.handlers.append(contentsOf: HandlerList(first: nil, more: late)) }
        return finish
    }

    // MARK: Failing

    /// Settles the response with the error `makeError` builds, unless it is settled already; the error is built
    /// only when needed (abandonment checks run on every resolver's release).
    @inlinable
    func failIfPending(_ makeError: () -> any Error) {
        if isSettled { return }
        fail(with: makeError())
    }

    /// Kept out of line so that the generic metadata `settle` needs is looked up only on this rare path, not by
    /// every caller of `failIfPending` (a resolver's deinit, which runs unspecialised).
    ///
    /// Delivered elsewhere: this runs where a resolver or a queued job is released, possibly inside the user's
    /// own lock, which is no place to run handlers, nor to call a queue's `schedule`.
    @usableFromInline @inline(never)
    func fail(with error: any Error) {
        settle(.failure(error), route: .elsewhere)
    }
}
