public import Dispatch

extension DispatchQueue: CallbackQueue {
    /// Runs `job` asynchronously on this queue.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        async(execute: job)
    }

    /// Whether the calling code runs on this queue, or on a queue that targets it.
    ///
    /// Answered through a queue-specific marker that the library sets on the queue the first time it asks,
    /// so it stays right for `sync` calls and for queues that target this one.
    public var isCurrent: Bool {
        let marker = QueueMarker.marker(of: self)
        return DispatchQueue.getSpecific(key: QueueMarker.key) === marker
    }

    /// Dispatch's shared concurrent queues (`DispatchQueue.global()`), which offer no mutual exclusion, so work
    /// queued there may as well run on a thread that would otherwise block waiting for it.
    var isGlobalConcurrentQueue: Bool {
        label.hasPrefix("com.apple.root.")
    }
}

/// The identity a queue carries in its queue-specific storage, so that a thread can ask whether it runs there.
final class QueueMarker: Sendable {
    static let key = DispatchSpecificKey<QueueMarker>()

    /// Serialises the first marking of a queue, so two threads asking at once agree on one marker.
    private static let marking = LockedBox(())

    static func marker(of queue: DispatchQueue) -> QueueMarker {
        if let marker = queue.getSpecific(key: key) { return marker }
        return marking.withLock { _ in
            if let marker = queue.getSpecific(key: key) { return marker }
            let marker = QueueMarker()
            queue.setSpecific(key: key, value: marker)
            return marker
        }
    }
}
