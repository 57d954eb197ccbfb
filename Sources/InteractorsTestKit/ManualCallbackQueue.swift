public import Interactors

/// A callback queue that runs nothing until the test says so, so a test decides exactly when handlers run.
///
/// ```swift
/// let queue = ManualCallbackQueue()
/// response.onCompletion(on: queue) { value in received = value }
/// resolver.succeed(3)
/// #expect(queue.pendingJobs == 1)   // delivered in one hop, not yet run
/// queue.runAll()
/// ```
public final class ManualCallbackQueue: CallbackQueue {
    private let jobs = LockedBox<[@Sendable () -> Void]>([])
    private let scheduled = LockedBox(0)

    /// Makes an empty queue.
    public init() {}

    /// Holds `job` until ``runAll()`` or ``runNext()``.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        scheduled.withLock { $0 += 1 }
    }

    /// How many jobs wait to run.
    public var pendingJobs: Int {
        jobs.withLock { $0.count }
    }

    /// How many jobs were ever scheduled here: the number of hops deliveries took.
    public var scheduledJobs: Int {
        scheduled.withLock { $0 }
    }

    /// Runs the oldest waiting job on this thread; returns whether there was one.
    @discardableResult
    public func runNext() -> Bool {
        let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        job?()
        return job != nil
    }

    /// Runs waiting jobs on this thread, oldest first, including jobs they schedule, until none is left; returns
    /// how many ran.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while runNext() { count += 1 }
        return count
    }

    /// Discards the waiting jobs without running them, as a queue that is torn down would; returns how many.
    @discardableResult
    public func dropAll() -> Int {
        let dropped = jobs.withLock { jobs in
            defer { jobs = [] }
            return jobs
        }
        return dropped.count
    }
}
