import Dispatch

/// Runs jobs at their deadlines on a thread of its own, for `timeout(after:)`.
///
/// Not Dispatch's `asyncAfter`: its timers fire on the global pool, which may be saturated, and a timeout has
/// to fire near its deadline whatever the pool's state. The jobs must be short and never block: they record
/// an outcome and leave its delivery to others (see `DeliveryRoute.elsewhere`).
final class DeadlineTimer: Sendable {
    static let shared = DeadlineTimer()

    private struct Entry {
        let deadline: UInt64
        let job: @Sendable () -> Void
    }

    /// Pending entries, latest deadline first, so the next one due is at the end.
    private let entries = LockedBox<[Entry]>([])
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {
        // At the main thread's QoS on Darwin: the first `timeout(after:)` may be made on a background thread, and
        // every later timeout would inherit its priority.
        PlatformThread.detach(atMainQoS: true) { [self] in run() }
    }

    /// Runs `job` on the timer's thread once `deadline` has passed.
    func schedule(at deadline: DispatchTime, _ job: @escaping @Sendable () -> Void) {
        let entry = Entry(deadline: deadline.uptimeNanoseconds, job: job)
        let isNext = entries.withLock { entries in
            let index = entries.partitioningIndex { $0.deadline < entry.deadline }
            entries.insert(entry, at: index)
            return index == entries.count - 1
        }
        if isNext { wakeUp.signal() }
    }

    private func run() -> Never {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, next) = entries.withLock { entries -> ([Entry], UInt64?) in
                var due: [Entry] = []
                while let last = entries.last, last.deadline <= now { due.append(entries.removeLast()) }
                return (due, entries.last?.deadline)
            }
            for entry in due { entry.job() }
            if due.isEmpty {
                _ = wakeUp.wait(timeout: next.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture)
            }
        }
    }
}

extension Array {
    /// The index of the first element for which `belongsInSecondPart` is true, in an array partitioned so that
    /// every such element comes after every other one.
    fileprivate func partitioningIndex(where belongsInSecondPart: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsInSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
