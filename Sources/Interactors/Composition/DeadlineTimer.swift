import Dispatch
import Synchronization

/// The library's own thread, `ix.timer`: fires deadlines, for `timeout(after:)`, `delay(by:)` and `retry`'s
/// back-offs (whose next attempt it starts itself: an attempt only starts work), and hands deliveries that must not
/// run on the thread that settled them to their queues (see `Response.handOutQueuedHandlers()`).
///
/// Not Dispatch's `asyncAfter` nor a global queue: the global pool may be saturated, and a timeout has to fire,
/// and its handlers reach their queues, near its deadline whatever the pool's state. The jobs must be short and
/// never block or run user code beyond a retry's attempt: they record outcomes and schedule handlers on their
/// queues, and leave what runs user code on the delivering thread (stages, immediate handlers, cancellation
/// handlers) to the delivery threads (`DeliveryThreads`) and blocked callers.
///
/// The deadlines wait in a binary heap, each ``Entry`` knowing its place in it, so scheduling and cancelling cost
/// a logarithm of the number pending (and scheduling a deadline later than all the others, the usual case for
/// timeouts of one duration, costs one comparison): a server with hundreds of thousands of timeouts pending pays
/// per call what an idle process does. A cancelled entry leaves the heap at once, with what it holds.
final class DeadlineTimer: Sendable {
    static let shared = DeadlineTimer()

    /// Something to do at a deadline. Subclasses override ``expire()``; the timer calls it on its thread, at most
    /// once, unless the entry was cancelled first.
    class Entry: @unchecked Sendable {
        // @unchecked Sendable: `position` and `sequence` are only touched while the timer's lock is held; `state`
        // is atomic.

        /// Not scheduled yet, scheduled (or being scheduled), or cancelled: so that cancelling an entry that was
        /// never scheduled (a timeout whose response settled at once) takes no lock.
        fileprivate let state = Atomic<UInt8>(Entry.new)
        fileprivate static var new: UInt8 { 0 }
        fileprivate static var scheduled: UInt8 { 1 }
        fileprivate static var cancelled: UInt8 { 2 }

        fileprivate var deadline: UInt64 = 0
        /// The order of scheduling, for entries with the same deadline.
        fileprivate var sequence: UInt64 = 0
        /// Where the entry is in the heap; `nil` before it is inserted and once it left.
        fileprivate var position: Int?
        /// Cancelled while it was being scheduled: it must not be inserted.
        fileprivate var isCancelled = false

        init() {}

        /// What happens at the deadline. Runs on the timer's thread: short, no blocking, no user code.
        func expire() {}

        /// Called, on the cancelling thread, when a cancellation took the entry out before it expired: to let go
        /// of what it holds.
        func cancelled() {}
    }

    fileprivate struct Jobs {
        /// Pending entries, a binary min-heap by deadline, then by sequence.
        var heap: [Entry] = []
        var sequence: UInt64 = 0
        /// Jobs to run as soon as the thread gets to them, oldest first.
        var ready = FIFO<@Sendable () -> Void>()
        /// When the thread, parked or about to park, wakes up on its own (`UInt64.max`: never); `nil` while it is
        /// awake and will look at the heap and the jobs again before it parks. A new deadline wakes it only if it
        /// is earlier than this, and a new ready job only if it is parked.
        var parkedUntil: UInt64?
        /// The time the thread last parked until, kept when the heap empties: the thread parks until then again
        /// rather than for ever, so the next deadline made (later, for timeouts of one duration) needs no wake-up.
        /// Timeouts made and settled one after another then cost the thread one wake-up per kept time, not one
        /// each.
        var keptWakeUp: UInt64 = .max
    }

    private let jobs = LockedBox(Jobs())
    private let wakeUp = DispatchSemaphore(value: 0)
    /// How many times a new deadline, a new job, and the time it parked until woke the thread: for tests, which
    /// tell the wake-ups new deadlines cause from those other tests' jobs and deadlines cause meanwhile.
    private let wakeUpsForDeadlines = Atomic<Int>(0)
    private let wakeUpsForJobs = Atomic<Int>(0)
    private let wakeUpsOnTime = Atomic<Int>(0)

    private init() {
        // At the main thread's QoS on Darwin: a thread started without a QoS attribute runs at QOS_CLASS_DEFAULT
        // (<sys/qos.h>), below the user-interactive main thread whose timeouts it fires.
        PlatformThread.detach(name: "ix.timer", atMainQoS: true) { [self] in run() }
    }

    /// Has the timer's thread call `entry.expire()` once `deadline` has passed, unless `entry` is cancelled first.
    /// An entry is scheduled at most once.
    func schedule(_ entry: Entry, at deadline: DispatchTime) {
        guard entry.state.compareExchange(expected: Entry.new, desired: Entry.scheduled, ordering: .relaxed).exchanged
        else { return }
        let wakesTheThread = jobs.withLock { jobs -> Bool in
            guard !entry.isCancelled else { return false }
            entry.deadline = deadline.uptimeNanoseconds
            jobs.sequence += 1
            entry.sequence = jobs.sequence
            entry.position = jobs.heap.count
            jobs.heap.append(entry)
            jobs.siftUp(from: jobs.heap.count - 1)
            return jobs.wake(before: entry.deadline)
        }
        if wakesTheThread {
            wakeUpsForDeadlines.add(1, ordering: .relaxed)
            wakeUp.signal()
        }
    }

    /// Cancels `entry`: it will not expire. If it was waiting in the heap, it leaves it now and its `cancelled()`
    /// runs on this thread; an entry never scheduled is cancelled with one atomic operation.
    func cancel(_ entry: Entry) {
        guard !entry.state.compareExchange(expected: Entry.new, desired: Entry.cancelled, ordering: .relaxed).exchanged
        else { return }
        let removed = jobs.withLock { jobs -> Bool in
            entry.isCancelled = true
            guard let position = entry.position else { return false }
            jobs.remove(at: position)
            return true
        }
        if removed { entry.cancelled() }
    }

    /// Runs `job` on the timer's thread as soon as it gets to it, after the jobs already waiting.
    func run(_ job: @escaping @Sendable () -> Void) {
        let wakesTheThread = jobs.withLock { jobs in
            jobs.ready.append(job)
            return jobs.wakeForAJob()
        }
        if wakesTheThread {
            wakeUpsForJobs.add(1, ordering: .relaxed)
            wakeUp.signal()
        }
    }

    /// How many times a new deadline, a new job, and the time it parked until have woken the thread so far, for
    /// tests.
    var wakeUpCounts: (forDeadlines: Int, forJobs: Int, onTime: Int) {
        (
            wakeUpsForDeadlines.load(ordering: .relaxed), wakeUpsForJobs.load(ordering: .relaxed),
            wakeUpsOnTime.load(ordering: .relaxed)
        )
    }

    /// How many entries wait for their deadline, for tests.
    var pendingCount: Int {
        jobs.withLock { $0.heap.count }
    }

    private func run() -> Never {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (ready, expired, parkUntil) = jobs.withLock { jobs -> ([@Sendable () -> Void], [Entry], UInt64?) in
                var ready: [@Sendable () -> Void] = []
                while let job = jobs.ready.popFirst() { ready.append(job) }
                var expired: [Entry] = []
                while let first = jobs.heap.first, first.deadline <= now {
                    jobs.remove(at: 0)
                    expired.append(first)
                }
                guard ready.isEmpty && expired.isEmpty else {
                    jobs.parkedUntil = nil
                    return (ready, expired, nil)
                }
                let kept = jobs.keptWakeUp > now ? jobs.keptWakeUp : .max
                let parkUntil = min(jobs.heap.first?.deadline ?? .max, kept)
                jobs.parkedUntil = parkUntil
                jobs.keptWakeUp = parkUntil
                return (ready, expired, parkUntil)
            }
            for job in ready { job() }
            for entry in expired { entry.expire() }
            if let parkUntil,
                wakeUp.wait(timeout: parkUntil == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: parkUntil))
                    == .timedOut
            {
                wakeUpsOnTime.add(1, ordering: .relaxed)
            }
        }
    }
}

extension DeadlineTimer.Jobs {
    /// Whether something due at `deadline` must wake the thread: it is parked until later. Marks it awake, so that
    /// the thread is woken once however many deadlines and jobs arrive before it looks again.
    fileprivate mutating func wake(before deadline: UInt64) -> Bool {
        guard let parkedUntil, deadline < parkedUntil else { return false }
        self.parkedUntil = nil
        return true
    }

    /// Whether a new ready job must wake the thread: it is parked. Marks it awake, as ``wake(before:)`` does.
    fileprivate mutating func wakeForAJob() -> Bool {
        guard parkedUntil != nil else { return false }
        parkedUntil = nil
        return true
    }
}

// MARK: - The heap

extension DeadlineTimer.Jobs {
    /// Whether `left` is due before `right`.
    private func precedes(_ left: DeadlineTimer.Entry, _ right: DeadlineTimer.Entry) -> Bool {
        left.deadline < right.deadline || (left.deadline == right.deadline && left.sequence < right.sequence)
    }

    private mutating func place(_ entry: DeadlineTimer.Entry, at position: Int) {
        heap[position] = entry
        entry.position = position
    }

    fileprivate mutating func siftUp(from start: Int) {
        let entry = heap[start]
        var position = start
        while position > 0 {
            let parent = (position - 1) / 2
            guard precedes(entry, heap[parent]) else { break }
            place(heap[parent], at: position)
            position = parent
        }
        place(entry, at: position)
    }

    fileprivate mutating func siftDown(from start: Int) {
        let entry = heap[start]
        var position = start
        while true {
            var child = 2 * position + 1
            guard child < heap.count else { break }
            if child + 1 < heap.count, precedes(heap[child + 1], heap[child]) { child += 1 }
            guard precedes(heap[child], entry) else { break }
            place(heap[child], at: position)
            position = child
        }
        place(entry, at: position)
    }

    /// Takes the entry at `position` out of the heap.
    fileprivate mutating func remove(at position: Int) {
        let removed = heap[position]
        removed.position = nil
        let last = heap.removeLast()
        guard position < heap.count else { return }
        place(last, at: position)
        if position > 0, precedes(last, heap[(position - 1) / 2]) {
            siftUp(from: position)
        } else {
            siftDown(from: position)
        }
    }
}
