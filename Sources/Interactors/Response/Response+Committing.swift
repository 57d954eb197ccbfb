import Synchronization

// MARK: Committing to an outcome
//
// Cancelling a response is a request to stop work nobody needs any more. Some work cannot be taken back once it
// has begun: a write handed to a database or sent to a server happens whatever the caller does next, and a caller
// told "cancelled" would believe it did not. Such work commits its response to its outcome when it begins
// (`Resolver.commitToOutcome()`); from then on `cancel()` is ignored, and so is a consumer letting go, both on that
// response and on every response that waits on it through `map`, `flatMap` and the like: each settles with the
// work's outcome.
//
// The race between a cancellation and the work's beginning is decided exactly once, under the locks of the
// responses involved, so the caller never hears "cancelled" about work that went ahead. `cancel()` first walks
// what the cancelled response waits on, as long as each link has no consumer but the one above it (so the
// cancellation would reach it): a link whose work has committed refuses, and then every link above it refuses
// too; otherwise each link is marked, and a marked response's work can no longer commit (its `commitToOutcome()`
// cancels it at once and answers `false`). Only then is the response settled as cancelled, and the cancellation
// flows down as usual. A `flatMap` that moves on from committed work to the next response keeps refusing.

/// One step of a cancellation's walk down what a response waits on (see ``UpstreamLink/markCancellation(unconditionally:)``).
@usableFromInline
enum CancellationStep {
    /// The link's work has committed to its outcome: the cancellation is refused.
    case refused
    /// The cancellation goes no further down: the link has other consumers, has settled, or is not a response.
    case stop
    /// The link is marked and cannot commit any more; the walk goes on to what it waits on, if anything.
    case descend((any UpstreamLink)?)
}

extension Response {
    /// Commits the response to the outcome of its work, which is beginning: see ``Resolver/commitToOutcome()``.
    @usableFromInline
    func commitToOutcome() -> Bool {
        lock.lock()
        let current = state.load(ordering: .relaxed)
        guard ResponseState.phase(current) == ResponseState.pending else {
            lock.unlock()
            return false
        }
        if current & ResponseState.cancellationIntended != 0, ResponseState.consumers(current) <= 1 {
            lock.unlock()
            // The only consumer is cancelling, and that cancellation is already decided: it is certain, so the
            // work is withdrawn now. Delivered elsewhere: this runs inside the work's own bookkeeping (a store's
            // batch, a database's writer), where no handler may run.
            settle(.failure(CancellationError()), cancelling: true, route: .elsewhere)
            return false
        }
        let committed = (current | ResponseState.refusesCancellation) & ~ResponseState.cancellationIntended
        state.store(committed, ordering: .releasing)
        lock.unlock()
        return true
    }

    /// Walks what this response waits on before a cancellation settles it, marking each link the cancellation
    /// will reach; returns `false`, with every link walked now refusing, if one of them has committed to its
    /// outcome. `asSoleConsumer`: the canceller is a consumer of this response (an awaiting task) rather than its
    /// owner, so the cancellation reaches this response only if it is its only consumer.
    func prepareCancellation(asSoleConsumer: Bool) -> Bool {
        var marked: [any UpstreamLink] = []
        var next: (any UpstreamLink)? = self
        var unconditionally = !asSoleConsumer
        while let link = next {
            switch link.markCancellation(unconditionally: unconditionally) {
            case .refused:
                for link in marked { link.refuseCancellation() }
                return false
            case .stop:
                next = nil
            case .descend(let upstream):
                marked.append(link)
                next = upstream
            }
            unconditionally = false
        }
        return true
    }
}

extension Response {
    @usableFromInline
    func markCancellation(unconditionally: Bool) -> CancellationStep {
        lock.withLock {
            let current = state.load(ordering: .relaxed)
            if current & ResponseState.refusesCancellation != 0 { return .refused }
            guard ResponseState.phase(current) == ResponseState.pending else { return .stop }
            guard unconditionally || ResponseState.consumers(current) == 1 else { return .stop }
            state.store(current | ResponseState.cancellationIntended, ordering: .relaxed)
            return .descend(slot.upstream)
        }
    }

    @usableFromInline
    func refuseCancellation() {
        lock.withLock {
            let current = state.load(ordering: .relaxed)
            guard ResponseState.phase(current) == ResponseState.pending else { return }
            let refusing = (current | ResponseState.refusesCancellation) & ~ResponseState.cancellationIntended
            state.store(refusing, ordering: .relaxed)
        }
    }

    @usableFromInline
    var refusesCancellation: Bool {
        state.load(ordering: .acquiring) & ResponseState.refusesCancellation != 0
    }
}

extension Resolver {
    /// Commits the response to the outcome of the work, which is beginning now and cannot be taken back (a write
    /// handed to a database, a request sent to a server). Returns `false` if the response has been cancelled:
    /// then don't begin the work.
    ///
    /// From then on ``Response/cancel()`` is ignored (``Response/isCancelled`` stays `false`), and so is a
    /// consumer letting go, on this response and on every response derived from it while it waits on it: each
    /// settles with the work's outcome, and `await response.value` in a cancelled task returns that outcome
    /// too. Work that has not begun (queued behind other work) is withdrawn by a cancellation, as usual.
    ///
    /// ```swift
    /// func delete(_ id: Book.ID) -> Response<Void> {
    ///     Response { resolver in
    ///         queue.enqueue {
    ///             guard resolver.commitToOutcome() else { return }  // cancelled while queued: nothing written
    ///             resolver.resolve(Result { try database.delete(id) })
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// A cancellation and the work's beginning are decided once, exactly: either the cancellation came first
    /// (this returns `false`, and the response fails with `CancellationError`) or the work did (the caller gets its
    /// outcome), never "cancelled" about work that went ahead.
    @inlinable
    @discardableResult
    public func commitToOutcome() -> Bool {
        response.commitToOutcome()
    }
}
