import Dispatch
import Synchronization

/// Work queued to a queue that a blocked caller may run in its place.
@usableFromInline
protocol InlineRunnableWork: AnyObject, Sendable {
    /// The queue the work was given to; `nil` once it has been claimed.
    var queue: (any CallbackQueue)? { get }
    /// Whether the work has been claimed: started, run in a blocked caller's place, or dropped.
    var isClaimed: Bool { get }
    /// Where the work stands in its queue's list of the library's unstarted work (see ``QueueMarker``); 0 when
    /// its queue keeps no such list.
    var position: UInt64 { get }
    /// The record of the thread running the work, while it runs: what that thread waits on, for cycle
    /// detection.
    var runner: WaitRecord? { get }
    @discardableResult func runIfUnclaimed() -> Bool
}

/// Work handed to a queue by `Response(on:)`, claimable once: by the queue when it gets to it, or by a thread
/// that would otherwise block waiting for it (see `Response.helpWhileBlocked(timed:from:)`).
///
/// The queue's job holds this object until the queue reaches it, however long its backlog: so the work, what it
/// captured, and the response are kept in a payload that is let go of the moment the work is claimed (run
/// inline, started, or dropped because its response was cancelled), not when the queue gets to the dead job.
final class QueuedWork<Value: Sendable>: InlineRunnableWork, @unchecked Sendable {
    // @unchecked Sendable: `payload` and `runningRecord` are only touched while `lock` is held.

    private struct Payload {
        let queue: any CallbackQueue
        let response: Response<Value>
        let work: @Sendable () throws -> Value
    }

    private let lock = Lock()
    private let claimed = Atomic<Bool>(false)
    private var payload: Payload?
    private var runningRecord: WaitRecord?
    let position: UInt64

    init(
        queue: any CallbackQueue,
        response: Response<Value>,
        position: UInt64,
        work: @escaping @Sendable () throws -> Value
    ) {
        self.payload = Payload(queue: queue, response: response, work: work)
        self.position = position
    }

    var queue: (any CallbackQueue)? {
        lock.withLock { payload?.queue }
    }

    var isClaimed: Bool {
        claimed.load(ordering: .acquiring)
    }

    var runner: WaitRecord? {
        lock.withLock { runningRecord }
    }

    /// Runs the work unless someone already claimed it; returns whether this call ran it.
    @discardableResult
    func runIfUnclaimed() -> Bool {
        run(learningFrom: nil)
    }

    /// Runs the work as its queue's own job, unless a blocked caller claimed it first; the queue's marker, if
    /// any, learns where the queue runs (see ``QueueMarker/learnTargets()``).
    func runAsQueuedJob(marker: QueueMarker?) {
        _ = run(learningFrom: marker)
    }

    private func run(learningFrom marker: QueueMarker?) -> Bool {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        unowned(unsafe) let drain = DeliveryDrain.current.takeUnretainedValue()
        let record = drain.waitRecord
        guard
            let payload = lock.withLock({ () -> Payload? in
                runningRecord = record
                return payload.take()
            })
        else { return true }
        marker?.learnTargets()
        // A response cancelled before its work started does not start it.
        if !payload.response.isDone {
            drain.dependableDepth += 1  // threads waiting for this work may be what it waits for: see `WaitRecord`
            payload.response.settle(Result { try payload.work() })
            drain.dependableDepth -= 1
        }
        lock.withLock { runningRecord = nil }
        return true
    }

    /// Lets go of the work, what it captured and its response without running it: its response was cancelled.
    func drop() {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let dropped = lock.withLock { payload.take() }
        withExtendedLifetime(dropped) {}  // released here, after the lock: captures may run user code when freed
    }

    deinit {
        // Never claimed: the queue dropped its job without running it.
        if let payload { payload.response.failIfPending { ResponseError.abandoned } }
    }
}
