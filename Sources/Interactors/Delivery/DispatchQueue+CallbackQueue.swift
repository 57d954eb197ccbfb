public import Dispatch
import Synchronization

extension DispatchQueue: CallbackQueue {
    /// Runs `job` asynchronously on this queue.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        async(execute: job)
    }

    /// Whether the calling code runs on this queue, or on a queue that targets it.
    ///
    /// Answered through a queue-specific marker that the library sets on the queue the first time it asks:
    /// Dispatch looks for it from the queue whose block is running now up through that queue's targets. So it is
    /// `true` inside this queue's blocks, inside `sync` calls made to this queue, and inside blocks of queues that
    /// target this one (however many of them were asked about too), at any depth.
    ///
    /// It cannot see what Dispatch does not record there: inside `other.sync { }` called from one of this
    /// queue's blocks, it is `false` when `other` does not target this queue, though the thread still holds this
    /// queue; and it says nothing about queues that merely share a target with this one. Dispatch has no way to
    /// ask a queue for its target. See "Observing and waiting" for what that means for a blocked caller.
    public var isCurrent: Bool {
        let marker = QueueMarker.marker(of: self)
        return DispatchQueue.getSpecific(key: marker.key) === marker
    }

    /// Dispatch's shared concurrent queues (`DispatchQueue.global()`), which offer no mutual exclusion, so work
    /// queued there may as well run on a thread that would otherwise block waiting for it.
    var isGlobalConcurrentQueue: Bool {
        Self.globalQueues.contains(ObjectIdentifier(self)) || label.hasPrefix("com.apple.root.")
    }

    /// The global queues a program can name, one per quality of service: a few identity checks tell them
    /// apart, cheaper than reading a label.
    private static let globalQueues: [ObjectIdentifier] = [
        .background, .utility, .default, .userInitiated, .userInteractive, .unspecified,
    ].map { ObjectIdentifier(DispatchQueue.global(qos: $0)) }

    /// Whether this is one of the global queues a program can name.
    var isNamedGlobalQueue: Bool {
        Self.globalQueues.contains(ObjectIdentifier(self))
    }
}

/// The identity a queue carries in its queue-specific storage, so that a thread can ask whether it runs there.
///
/// Each marker has a key of its own. `DispatchQueue.getSpecific(key:)` walks from the current queue up its
/// target chain and stops at the first queue that holds the key: with one key shared by every marker, a queue
/// targeting a marked queue, once marked itself, would hide its target's marker. The shared ``lookupKey`` only
/// finds a queue's own marker (`queue.getSpecific(key:)` does not walk the chain); the marker's ``key`` answers
/// "am I on it?".
final class QueueMarker: Sendable {
    /// Where a queue keeps its own marker, to be found from the queue.
    static let lookupKey = DispatchSpecificKey<QueueMarker>()

    private let ownKey = DispatchSpecificKey<QueueMarker>()

    /// Stored (releasing) once the marker is complete, before Dispatch gets it; loaded (acquiring) before a
    /// thread that got the marker from Dispatch reads it. Dispatch's own hand-off orders the two as well, but
    /// ThreadSanitizer cannot see inside libdispatch: this makes the publication visible to it, and part of our
    /// code rather than an assumption about Dispatch's.
    private let published = Atomic<Bool>(false)

    private init() {
        published.store(true, ordering: .releasing)
    }

    /// The library's work queued here that may not have started, oldest first (see ``enqueue(_:)``).
    private let unstarted = LockedBox(FIFO<any InlineRunnableWork>())
    private let positions = Atomic<UInt64>(0)
    /// Whether the queue runs on the main queue: 0 not known yet, 1 no, 2 yes (see ``learnTargets()``).
    private let targetsMain = Atomic<UInt8>(0)

    /// This marker's own key, set on its queue only.
    var key: DispatchSpecificKey<QueueMarker> {
        _ = published.load(ordering: .acquiring)
        return ownKey
    }

    /// The queue's marker, marking the queue on first use.
    ///
    /// No lock: the marker's own key is set on the queue before the marker is published under `lookupKey`, so
    /// whichever marker a thread finds or creates, its key is on the queue. Two threads marking a queue at once
    /// may each set a marker; one wins the lookup key, both keys stay on the queue (each kept alive by its own
    /// marker, stored under it, so no key's address is ever reused while a queue holds it), and both answer
    /// rightly. And no call into Dispatch happens under a lock.
    static func marker(of queue: DispatchQueue) -> QueueMarker {
        if let marker = queue.getSpecific(key: lookupKey) { return marker }
        let marker = QueueMarker()
        queue.setSpecific(key: marker.ownKey, value: marker)
        queue.setSpecific(key: lookupKey, value: marker)
        return marker
    }
}

// MARK: - The library's work on a serial queue

extension QueueMarker {
    /// The marker of `queue` for the library's `Response(on:)` work; `nil` for the global queues, which keep no
    /// order to hold.
    static func forLibraryWork(on queue: DispatchQueue) -> QueueMarker? {
        queue.isNamedGlobalQueue ? nil : marker(of: queue)
    }

    /// The position of the next work queued here, for ``enqueue(_:)``.
    func nextPosition() -> UInt64 {
        positions.add(1, ordering: .relaxed).newValue
    }

    /// Records `work`, queued here, so that a blocked caller that runs later work of this queue in its place
    /// first runs this (see ``runUnstarted(before:)``). Forgets the oldest entries once they are claimed.
    func enqueue(_ work: any InlineRunnableWork) {
        unstarted.withLock { fifo in
            // Released under the lock, which is safe: a claimed work holds nothing of the user's any more.
            while fifo.popFirst(if: { $0.isClaimed }) != nil {}
            fifo.append(work)
        }
    }

    /// Runs, in order, every unstarted work the library queued here before `awaited`: a blocked caller about
    /// to run `awaited` in the queue's place keeps the queue's order for the library's own work.
    func runUnstarted(before awaited: any InlineRunnableWork) {
        while let earlier = unstarted.withLock({ fifo -> (any InlineRunnableWork)? in
            while let head = fifo.popFirst(if: { $0.isClaimed || $0.position < awaited.position }) {
                if !head.isClaimed { return head }
            }
            return nil
        }) {
            earlier.runIfUnclaimed()
        }
    }

    /// Learns, from inside one of the queue's own jobs, whether the queue targets the main queue: Dispatch
    /// cannot be asked for a queue's target, but a job can ask whether it runs on the main queue. Once known, a
    /// caller blocked on the main queue may run this queue's work in its place (see
    /// `Response.helpWhileBlocked(timed:from:)`).
    func learnTargets() {
        guard targetsMain.load(ordering: .relaxed) == 0 else { return }
        targetsMain.store(DispatchQueue.main.isCurrent ? 2 : 1, ordering: .relaxed)
    }

    /// Whether one of the queue's jobs ran on the main queue: the queue targets it.
    var runsOnTheMainQueue: Bool {
        targetsMain.load(ordering: .relaxed) == 2
    }
}
