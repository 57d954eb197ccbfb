public import Dispatch
import Synchronization

extension DispatchQueue: CallbackQueue {
    /// Runs `job` asynchronously on this queue.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        async(execute: job)
    }

    /// Whether the calling code runs on this queue, or on a queue that targets it.
    ///
    /// Answered through a queue-specific marker that the library sets on the queue the first time it asks, so it
    /// stays right for `sync` calls and for queues that target this one, however many of them were asked about
    /// too.
    public var isCurrent: Bool {
        let marker = QueueMarker.marker(of: self)
        return DispatchQueue.getSpecific(key: marker.key) === marker
    }

    /// Dispatch's shared concurrent queues (`DispatchQueue.global()`), which offer no mutual exclusion, so work
    /// queued there may as well run on a thread that would otherwise block waiting for it.
    var isGlobalConcurrentQueue: Bool {
        label.hasPrefix("com.apple.root.")
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
