import Dispatch
import Synchronization

/// The rarely used part of a pending response's state, kept out of line so the common response stays one small
/// allocation. Dropped when the response settles.
@usableFromInline
final class ResponseExtras<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: the `var`s are only touched while the owning response's lock is held, except in
    // `responseDidSettle`, which runs after the response has detached the extras, so no other thread sees them.

    /// Run once if the response is cancelled; released unrun if it settles otherwise.
    var cancellationHandlers: [@Sendable () -> Void] = []

    /// Threads blocked in `get()` and friends. Not handlers: a wait that times out takes its semaphore back out,
    /// so repeated timed-out waits leave nothing behind.
    var waiters: [DispatchSemaphore] = []

    /// Progress handlers, and the latest fraction reported (-1 before any).
    var progressHandlers: [Handler<Double>] = []
    var progress: Double = -1

    /// Work queued by `Response(on:)` that has not started. Weak: the queue's job owns it, so a queue that drops
    /// the job releases it, and its release fails the response as abandoned.
    weak var queuedWork: QueuedWork<Value>?

    /// Called once, after the response has settled and let go of these extras.
    @usableFromInline
    func responseDidSettle(cancelled: Bool) {
        let handlers = cancellationHandlers
        cancellationHandlers = []
        if cancelled {
            for handler in handlers { handler() }
        }
        for waiter in waiters { waiter.signal() }
    }
}

/// Work handed to a queue by `Response(on:)`, claimable once: by the queue when it gets to it, or by a thread
/// that would otherwise block waiting for it (see `Response.runQueuedWorkIfWaitingWouldStall()`).
final class QueuedWork<Value: Sendable>: Sendable {
    let queue: any CallbackQueue
    private let response: Response<Value>
    private let work: @Sendable () throws -> Value
    private let claimed = Atomic<Bool>(false)

    init(queue: any CallbackQueue, response: Response<Value>, work: @escaping @Sendable () throws -> Value) {
        self.queue = queue
        self.response = response
        self.work = work
    }

    /// Runs the work unless someone already claimed it; returns whether this call ran it.
    @discardableResult
    func runIfUnclaimed() -> Bool {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        // A response cancelled before its work started does not start it.
        guard !response.isDone else { return true }
        response.settle(Result { try work() })
        return true
    }

    deinit {
        if !claimed.load(ordering: .acquiring) {
            response.failIfPending { ResponseError.abandoned }
        }
    }
}
