import Dispatch
import Synchronization

/// The rarely used part of a response's state, kept out of line so the common response stays one small
/// allocation. Dropped once the response's settlement is delivered.
@usableFromInline
final class ResponseExtras<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: the `var`s are only touched while the owning response's lock is held.

    /// Run once if the response is cancelled; released unrun if it settles otherwise. Taken at settlement.
    var cancellationHandlers: [@Sendable () -> Void] = []

    /// Threads parked in `get()` and friends on a semaphore, woken when the settlement has been delivered, or when
    /// it was deferred and they may deliver it themselves. Not handlers: a wait that times out takes its
    /// semaphore back out, so repeated timed-out waits leave nothing behind. (Where it can, a blocked caller
    /// sleeps on the response's state word instead: see `ParkingWord`.)
    var waiters: [DispatchSemaphore] = []

    /// Progress subscribers, and the latest fraction reported (-1 before any).
    var progressSubscribers: [ProgressSubscriber] = []
    var progress: Double = -1

    /// Work queued by `Response(on:)`. Weak: the queue's job owns it, so a queue that drops the job releases it,
    /// and its release fails the response as abandoned.
    weak var queuedWork: QueuedWork<Value>?

    /// Where each owner's handlers sit in a long list of them, once one has let go (see `HandlerOwnerIndex`).
    @usableFromInline var ownerIndex: HandlerOwnerIndex?

    /// A settlement's delivery waiting to be claimed (see `Response.deferDelivery(of:settled:)`).
    var deferred: Response<Value>.Finish?

    @usableFromInline
    init() {}

    /// Moves the cancellation handlers out, to run after the lock; the first lets go of unstarted queued work,
    /// so a cancelled `Response(on:)` keeps nothing it captured however long its queue's backlog.
    @usableFromInline
    func takeCancellationHandlers() -> [@Sendable () -> Void] {
        defer { cancellationHandlers = [] }
        guard let queuedWork else { return cancellationHandlers }
        return [{ queuedWork.drop() }] + cancellationHandlers
    }

    /// Wakes every waiter parked on a semaphore.
    @usableFromInline
    func wakeWaiters() {
        for waiter in waiters { waiter.signal() }
    }
}
