import Dispatch

/// The library's own thread: runs jobs at their deadlines, for `timeout(after:)`, and hands deliveries that must
/// not run on the thread that settled them to their queues (see `Response.handOutQueuedHandlers()`).
///
/// Not Dispatch's `asyncAfter` nor a global queue: the global pool may be saturated, and a timeout has to fire,
/// and its handlers reach their queues, near its deadline whatever the pool's state. The jobs must be short and
/// never block or run user code: they record outcomes and schedule handlers on their queues, and leave what runs
/// user code on the delivering thread (immediate handlers) to others.
final class DeadlineTimer: Sendable {
    static let shared = DeadlineTimer()

    private struct Entry {
        let deadline: UInt64
        let job: @Sendable () -> Void
    }

    private struct Jobs {
        /// Pending entries, latest deadline first, so the next one due is at the end.
        var timed: [Entry] = []
        /// Jobs to run as soon as the thread gets to them, oldest first.
        var ready = FIFO<@Sendable () -> Void>()
        /// Whether the thread may be parked: a new ready job must wake it.
        var isParked = false
    }

    private let jobs = LockedBox(Jobs())
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {
        // At the main thread's QoS on Darwin: the first `timeout(after:)` may be made on a background thread, and
        // every later timeout would inherit its priority.
        PlatformThread.detach(atMainQoS: true) { [self] in run() }
    }

    /// Runs `job` on the timer's thread once `deadline` has passed.
    func schedule(at deadline: DispatchTime, _ job: @escaping @Sendable () -> Void) {
        let entry = Entry(deadline: deadline.uptimeNanoseconds, job: job)
        let isNext = jobs.withLock { jobs in
            let index = jobs.timed.partitioningIndex { $0.deadline < entry.deadline }
            jobs.timed.insert(entry, at: index)
            return index == jobs.timed.count - 1
        }
        if isNext { wakeUp.signal() }
    }

    /// Runs `job` on the timer's thread as soon as it gets to it, after the jobs already waiting.
    func run(_ job: @escaping @Sendable () -> Void) {
        let wasParked = jobs.withLock { jobs in
            jobs.ready.append(job)
            defer { jobs.isParked = false }
            return jobs.isParked
        }
        if wasParked { wakeUp.signal() }
    }

    private func run() -> Never {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, next) = jobs.withLock { jobs -> ([@Sendable () -> Void], UInt64?) in
                var due: [@Sendable () -> Void] = []
                while let job = jobs.ready.popFirst() { due.append(job) }
                while let last = jobs.timed.last, last.deadline <= now { due.append(jobs.timed.removeLast().job) }
                jobs.isParked = due.isEmpty
                return (due, jobs.timed.last?.deadline)
            }
            for job in due { job() }
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
