import Dispatch

/// The line a blocking wait writes to standard error when work it waits for, queued to a `DispatchQueue`, has not
/// started long after the wait began: the sign of a wait that a queue hierarchy holds back, which the library
/// cannot see (Dispatch has no way to ask a queue for its target) and which would otherwise hang in silence.
///
/// Written at most once per queue label for the process, so a hierarchy that holds back many waits says so once.
package enum HeldBackWorkReport {
    /// How long a wait lets its work stay unstarted before it reports it.
    static let delay = DispatchTimeInterval.seconds(5)

    private static let reportedLabels = LockedBox<Set<String>>([])
    private static let observers = LockedBox<[UInt64: @Sendable (String) -> Void]>([:])
    private static let observerNumbers = LockedBox<UInt64>(0)

    /// Reports the work on `queue`, unless its label was reported already.
    static func report(_ queue: DispatchQueue) {
        let label = queue.label
        guard reportedLabels.withLock({ $0.insert(label).inserted }) else { return }
        let line =
            "Interactors: a blocking wait has waited 5 s for work queued to DispatchQueue \"\(label)\", which has "
            + "not started. Likely causes: that queue targets the queue the waiting thread runs on, or shares a "
            + "target with it, or the wait runs inside a nested `sync` call; Dispatch cannot tell the library so. "
            + "Fix: queue the work on the waiting code's own queue, or chain it with `flatMap` or `await` instead of "
            + "blocking. The wait goes on."
        writeToStandardError(line)
        for observer in observers.withLock({ Array($0.values) }) { observer(line) }
    }

    /// Calls `observer` with each line reported from now on, until ``removeObserver(_:)``; for tests, which
    /// cannot read the process's own standard error.
    package static func addObserver(_ observer: @escaping @Sendable (String) -> Void) -> UInt64 {
        let number = observerNumbers.withLock { number in
            number += 1
            return number
        }
        observers.withLock { $0[number] = observer }
        return number
    }

    /// Stops calling the observer that ``addObserver(_:)`` numbered `number`.
    package static func removeObserver(_ number: UInt64) {
        let removed = observers.withLock { $0.removeValue(forKey: number) }
        withExtendedLifetime(removed) {}
    }
}
