public import Dispatch
public import Synchronization

// MARK: Demand
//
// Cancellation flows down a composition: a derived response (a `map`, an `all`, a task awaiting `value`) is a
// consumer of what it waits on. When a consumer settles (cancelled, timed out, or lost a race) it releases its
// demand and takes its stage out of the upstream's handlers, so a long-lived upstream does not keep what a
// consumer captured; when the last consumer of a pending response lets go, that response is cancelled, and so
// on down. A caller blocked in `get()` counts as a consumer while it waits, but leaving does not cancel
// anything by itself. Plain handlers are observers, not consumers: they never keep work alive, nor does their
// absence cancel it.

/// The side of a response that its derived responses see: demand to release, and work a blocked caller may run.
@usableFromInline
protocol UpstreamLink: AnyObject, Sendable {
    /// `consumer` no longer needs this: its handlers are removed, and the last consumer to let go cancels this,
    /// if it is still pending.
    func releaseDemand(of consumer: AnyObject)

    /// As ``releaseDemand(of:)``, from a thread that must not run user code (the library's delivery thread): a
    /// cancellation it causes is recorded at once and delivered elsewhere, and what the consumer's handlers
    /// captured is released elsewhere.
    func releaseDemandWithoutUserCode(of consumer: AnyObject)

    /// Adds the queued work and the upstreams this link waits on, without recursing (chains can be long).
    /// `timed` says the path from the blocked caller crossed a deadline (a `timeout` stage).
    func collectBlockingHelp(into help: inout BlockingHelp, timed: Bool)

    /// One step of a cancellation's walk (see `Response+Committing.swift`): refuses if this link's work has
    /// committed to its outcome; else, if the cancellation will reach it (`unconditionally`, or its only consumer
    /// is the one cancelling), marks it so its work can no longer commit, and answers what it waits on.
    func markCancellation(unconditionally: Bool) -> CancellationStep

    /// Makes this pending link refuse cancellation from now on: what it waits on has committed to its outcome.
    func refuseCancellation()

    /// Whether this link refuses cancellation: its work, or work it waits on, has committed to its outcome.
    var refusesCancellation: Bool { get }

    /// Has `wakeUp` signalled when this link moves to a new upstream, defers its delivery or delivers (see
    /// `BlockedCallerWatch`); `false` if this link cannot be watched (it has settled, or is not a response).
    func addWatcher(_ wakeUp: DispatchSemaphore) -> Bool

    /// Stops signalling `wakeUp`.
    func removeWatcher(_ wakeUp: DispatchSemaphore)
}

/// What a blocked caller found it could run: queued work, each with whether a deadline lies on its path, and
/// settlements on its path whose delivery was deferred (past the depth limit, or by a timer or a dropped
/// resolver), which it may deliver itself rather than wait for whoever was to.
@usableFromInline
struct BlockingHelp {
    var work: [(work: any InlineRunnableWork, timed: Bool)] = []
    var upstreams: [(link: any UpstreamLink, timed: Bool)] = []
    var deferred: [any DeferredSettlement] = []
}

extension Response: UpstreamLink {
    /// Registers one more consumer; `false` if the response has settled and needs none.
    @inlinable
    func retainDemand() -> Bool {
        lock.withLock {
            let current = state.load(ordering: .relaxed)
            guard ResponseState.phase(current) == ResponseState.pending else { return false }
            state.store(ResponseState.addingConsumer(current), ordering: .relaxed)
            return true
        }
    }

    @usableFromInline
    func releaseDemand(of consumer: AnyObject) {
        let (removed, cancelNow) = takeDemand(of: consumer)
        withExtendedLifetime(removed) {}  // released here, after the lock: captures may run user code when freed
        if cancelNow { cancelUnlessConsumed() }
    }

    @usableFromInline
    func releaseDemandWithoutUserCode(of consumer: AnyObject) {
        let (removed, cancelNow) = takeDemand(of: consumer)
        if !removed.isEmpty { DeliveryThreads.run { withExtendedLifetime(removed) {} } }
        if cancelNow { cancelUnlessConsumed(route: .elsewhere) }
    }

    /// Cancels the response unless a consumer joined since the last one let go (a `map` made, a caller blocked, a
    /// task awaiting, between that release and this call): it needs the response, which then stays pending until
    /// that consumer lets go in turn.
    @usableFromInline
    func cancelUnlessConsumed(route: DeliveryRoute = .settlingThread) {
        settle(.failure(CancellationError()), cancelling: true, unlessConsumed: true, route: route)
    }

    /// Takes out the handlers `owner` added, keeping the consumer count as it is: for a consumer that added its
    /// stage after it settled and let go (a combinator decided by an earlier input, a task cancelled before it
    /// waited, a `flatMap` cancelled while its transform ran), so the stage does not stay until this settles.
    @usableFromInline
    func withdrawHandlers(ownedBy owner: AnyObject) {
        if isSettled { return }
        let removed = lock.withLock { () -> HandlerList<Value> in
            guard !isSettled else { return HandlerList() }
            return takeHandlers(ownedBy: owner)
        }
        withExtendedLifetime(removed) {}  // released after the lock: captures may run user code when freed
    }

    /// Takes `consumer`'s handlers out and its demand back; returns the handlers, to release after the lock, and
    /// whether the response is to be cancelled now: when no consumer is left, unless a caller blocked on it still
    /// counts as one (then the last of them to leave cancels it, see `leaveBlocking()`).
    private func takeDemand(of consumer: AnyObject) -> (removed: HandlerList<Value>, cancelNow: Bool) {
        lock.withLock {
            let current = state.load(ordering: .relaxed)
            guard ResponseState.phase(current) == ResponseState.pending, ResponseState.consumers(current) > 0 else {
                return (HandlerList(), false)
            }
            let removed = takeHandlers(ownedBy: consumer)
            let remaining = current &- ResponseState.oneConsumer
            state.store(remaining | ResponseState.consumerLetGo, ordering: .relaxed)
            return (removed, ResponseState.consumers(remaining) == 0)
        }
    }

    /// Takes out the handlers `owner` added to this pending response, keeping the others in order: in constant
    /// time for a long list (see `HandlerOwnerIndex`). Call with the lock held.
    private func takeHandlers(ownedBy owner: AnyObject) -> HandlerList<Value> {
        var taken = HandlerList<Value>()
        if case .pending(_, let first?) = slot, first.isOwned(by: owner) { taken.first = takeFirstPending() }
        guard var handlers = more.take() else { return taken }
        defer { more = handlers }
        if handlers.count < HandlerOwnerIndex.threshold, extras?.ownerIndex == nil {
            for handler in handlers where handler.isOwned(by: owner) { taken.append(handler) }
            handlers.removeAll { $0.isOwned(by: owner) }
            return taken
        }
        let extras = makeExtras()
        let index = extras.ownerIndex ?? HandlerOwnerIndex(handlers)
        extras.ownerIndex = index
        index.take(ownedBy: owner, from: &handlers, into: &taken)
        return taken
    }

    @usableFromInline
    func collectBlockingHelp(into help: inout BlockingHelp, timed: Bool) {
        let (queued, source, deferred) = lock.withLock { () -> (QueuedWork<Value>?, (any UpstreamLink)?, Bool) in
            let current = state.load(ordering: .relaxed)
            guard ResponseState.phase(current) == ResponseState.pending else {
                return (nil, nil, current & ResponseState.finishPending != 0)
            }
            return (extras?.queuedWork, slot.upstream, false)
        }
        if let queued { help.work.append((queued, timed)) }
        if let source { help.upstreams.append((source, timed)) }
        if deferred { help.deferred.append(self) }
    }

    /// Replaces what this response waits on (a `flatMap` moving from its first stage to the response its
    /// transform returned); releases `next` at once if this response has already settled. Callers blocked on
    /// this response are told, since `next` may hold work they have to run themselves. Returns whether `next`
    /// is now what this response waits on (`false`: it had settled, or `next` had).
    @usableFromInline
    @discardableResult
    func switchUpstream<Next: Sendable>(to next: Response<Next>) -> Bool {
        guard next.retainDemand() else { return false }
        guard let watchers = replaceUpstream(with: next, takingWatchers: true) else {
            next.releaseDemand(of: self)
            return false
        }
        for watcher in watchers { watcher.signal() }
        return true
    }

    /// Makes `link` what this pending response waits on, releasing the previous link after the lock; `false` if
    /// the response has settled.
    ///
    /// A response that moves on from work that committed to its outcome keeps refusing cancellation: its answer
    /// is now that work's consequence (a `flatMap` after a write).
    @usableFromInline
    func replaceUpstream(with link: any UpstreamLink) -> Bool {
        replaceUpstream(with: link, takingWatchers: false) != nil
    }

    /// As ``replaceUpstream(with:)``; answers `nil` if the response has settled, else its watchers to signal
    /// (copied into a buffer of their own under the lock, if `takingWatchers`).
    @usableFromInline
    func replaceUpstream(with link: any UpstreamLink, takingWatchers: Bool) -> [DispatchSemaphore]? {
        let (watchers, previous) = lock.withLock { () -> ([DispatchSemaphore]?, (any UpstreamLink)?) in
            guard !isSettled else { return (nil, nil) }
            let previous = replaceUpstreamPending(with: link)
            if previous?.refusesCancellation == true {
                let current = state.load(ordering: .relaxed)
                state.store(current | ResponseState.refusesCancellation, ordering: .relaxed)
            }
            guard takingWatchers, let waiters = extras?.waiters, !waiters.isEmpty else { return ([], previous) }
            return (waiters.map { $0 }, previous)
        }
        withExtendedLifetime(previous) {}  // released after the lock
        return watchers
    }

    @usableFromInline
    func addWatcher(_ wakeUp: DispatchSemaphore) -> Bool {
        lock.withLock {
            guard !isSettled else { return false }
            makeExtras().waiters.append(wakeUp)
            return true
        }
    }

    @usableFromInline
    func removeWatcher(_ wakeUp: DispatchSemaphore) {
        lock.withLock {
            guard let extras, let index = extras.waiters.firstIndex(where: { $0 === wakeUp }) else { return }
            extras.waiters.remove(at: index)
        }
    }

    /// Consumes `next` through `stage`, owned by this response: makes `next` its upstream and adds the stage to
    /// it, unless this response has settled, and takes the stage back if it settled meanwhile (its release of
    /// `next` may have come before the stage was there to take), so no stage outlives the response's need.
    @inlinable
    func consume<Next: Sendable>(_ next: Response<Next>, through stage: Callback<Next>) {
        guard switchUpstream(to: next) else {
            // `next` had settled: the stage runs at once, and leaves nothing behind.
            if !isSettled, next.isSettled { next.add(Handler(immediate: stage, ownedBy: self)) }
            return
        }
        next.add(Handler(immediate: stage, ownedBy: self))
        if isSettled { next.withdrawHandlers(ownedBy: self) }
    }
}

/// Several upstreams seen as one, for combinators.
final class UpstreamGroup: UpstreamLink {
    private let members: [any UpstreamLink]

    init(_ members: [any UpstreamLink]) { self.members = members }

    func releaseDemand(of consumer: AnyObject) {
        for member in members { member.releaseDemand(of: consumer) }
    }

    func releaseDemandWithoutUserCode(of consumer: AnyObject) {
        for member in members { member.releaseDemandWithoutUserCode(of: consumer) }
    }

    func collectBlockingHelp(into help: inout BlockingHelp, timed: Bool) {
        for member in members { help.upstreams.append((member, timed)) }
    }

    /// A combinator's inputs each decide on their own, when its cancellation releases them.
    func markCancellation(unconditionally: Bool) -> CancellationStep { .stop }

    func refuseCancellation() {}

    var refusesCancellation: Bool { false }

    /// Walked through, not watched: its members are.
    func addWatcher(_ wakeUp: DispatchSemaphore) -> Bool { false }

    func removeWatcher(_ wakeUp: DispatchSemaphore) {}
}

extension Response {
    /// How many handlers this response holds while pending, those taken back left out; 0 once settled. For tests
    /// that check a consumer which let go left nothing behind.
    var pendingHandlerCount: Int {
        lock.withLock {
            guard !isSettled else { return 0 }
            let first = slot.hasFirst ? 1 : 0
            return first + (more?.count { !$0.isRemoved } ?? 0)
        }
    }
}
