import Dispatch
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
}

/// What a blocked caller found it could run: queued work, each with whether a deadline lies on its path.
@usableFromInline
struct BlockingHelp {
    var work: [(work: any InlineRunnableWork, timed: Bool)] = []
    var upstreams: [(link: any UpstreamLink, timed: Bool)] = []
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
        if cancelNow { cancel() }
    }

    @usableFromInline
    func releaseDemandWithoutUserCode(of consumer: AnyObject) {
        let (removed, cancelNow) = takeDemand(of: consumer)
        if !removed.isEmpty { DispatchQueue.global().async { withExtendedLifetime(removed) {} } }
        if cancelNow { settle(.failure(CancellationError()), cancelling: true, route: .elsewhere) }
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
        let (queued, source) = lock.withLock { () -> (QueuedWork<Value>?, (any UpstreamLink)?) in
            guard !isSettled else { return (nil, nil) }
            return (extras?.queuedWork, slot.upstream)
        }
        if let queued { help.work.append((queued, timed)) }
        if let source { help.upstreams.append((source, timed)) }
    }

    /// Replaces what this response waits on (a `flatMap` moving from its first stage to the response its
    /// transform returned); releases `next` at once if this response has already settled. Callers blocked on
    /// this response are told, since `next` may hold work they have to run themselves.
    @usableFromInline
    func switchUpstream<Next: Sendable>(to next: Response<Next>) {
        guard next.retainDemand() else { return }
        let (accepted, previous) = lock.withLock { () -> (Bool, (any UpstreamLink)?) in
            guard !isSettled else { return (false, nil) }
            return (true, replaceUpstreamPending(with: next))
        }
        withExtendedLifetime(previous) {}  // released after the lock
        if accepted {
            WakeUpList.blockedCallers.notify()
        } else {
            next.releaseDemand(of: self)
        }
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
}
