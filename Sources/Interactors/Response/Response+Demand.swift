// MARK: Demand
//
// Cancellation flows down a composition: a derived response (a `map`, an `all`, a task awaiting `value`) is a
// consumer of what it waits on. When a consumer settles (cancelled, timed out, or lost a race) it releases its
// demand; when the last consumer of a pending response lets go, that response is cancelled, and so on down.
// Plain handlers are observers, not consumers: they never keep work alive, nor does their absence cancel it.

/// The side of a response that its derived responses see: demand to release, and work a blocked caller may run.
@usableFromInline
protocol UpstreamLink: AnyObject, Sendable {
    /// One consumer no longer needs this; the last one to say so cancels it, if it is still pending.
    func releaseDemand()

    /// Adds the queued work and the upstreams this link waits on, without recursing (chains can be long).
    func collectBlockingHelp(work: inout [any InlineRunnableWork], upstreams: inout [any UpstreamLink])
}

/// Work queued to a queue that a blocked caller may run in its place.
@usableFromInline
protocol InlineRunnableWork: AnyObject, Sendable {
    var queue: any CallbackQueue { get }
    @discardableResult func runIfUnclaimed() -> Bool
}

extension QueuedWork: InlineRunnableWork {}

extension Response: UpstreamLink {
    /// Registers one more consumer; `false` if the response has settled and needs none.
    @inlinable
    func retainDemand() -> Bool {
        lock.withLock {
            guard !isSettled else { return false }
            consumers += 1
            return true
        }
    }

    @inlinable
    func releaseDemand() {
        let cancelNow = lock.withLock {
            guard !isSettled, consumers > 0 else { return false }
            consumers -= 1
            return consumers == 0
        }
        if cancelNow { cancel() }
    }

    @usableFromInline
    func collectBlockingHelp(work: inout [any InlineRunnableWork], upstreams: inout [any UpstreamLink]) {
        let (queued, source) = lock.withLock { () -> (QueuedWork<Value>?, (any UpstreamLink)?) in
            guard !isSettled else { return (nil, nil) }
            return (extras?.queuedWork, self.upstream)
        }
        if let queued { work.append(queued) }
        if let source { upstreams.append(source) }
    }

    /// Replaces what this response waits on (a `flatMap` moving from its first stage to the response its
    /// transform returned); releases `next` at once if this response has already settled.
    @inlinable
    func switchUpstream<Next: Sendable>(to next: Response<Next>) {
        guard next.retainDemand() else { return }
        let accepted = lock.withLock {
            guard !isSettled else { return false }
            upstream = next
            return true
        }
        if !accepted { next.releaseDemand() }
    }
}

/// Several upstreams seen as one, for combinators.
final class UpstreamGroup: UpstreamLink {
    private let members: [any UpstreamLink]

    init(_ members: [any UpstreamLink]) { self.members = members }

    @inlinable
    func releaseDemand() {
        for member in members { member.releaseDemand() }
    }

    func collectBlockingHelp(work: inout [any InlineRunnableWork], upstreams: inout [any UpstreamLink]) {
        upstreams.append(contentsOf: members)
    }
}
