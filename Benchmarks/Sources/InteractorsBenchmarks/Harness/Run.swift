import Dispatch
import MallocInterposerSwift

/// What a contender's body gets: how many operations (or rounds) to perform, and a way to mark the phases of a
/// round whose steady-state heap is reported (see ``BenchmarkCase/itemsPerRound``).
final class Run: @unchecked Sendable {
    // @unchecked: `start` and `pending` are written by the one thread running the body at that point; the harness
    // reads them after the body has returned.

    /// Operations to perform (for a case with ``BenchmarkCase/itemsPerRound``: rounds).
    let iterations: Int
    /// Whether allocations are being counted in this run.
    let countsAllocations: Bool
    private(set) var start: MallocInterposerSwift.Statistics?
    /// When the body called ``startClock()``, the uptime in nanoseconds at that point.
    private(set) var clockStart: UInt64?
    /// When the body called ``stopClock()``, the uptime in nanoseconds at that point.
    private(set) var clockEnd: UInt64?
    private(set) var pending: MallocInterposerSwift.Statistics?

    init(iterations: Int, countsAllocations: Bool) {
        self.iterations = iterations
        self.countsAllocations = countsAllocations
    }

    /// Call after untimed setup (futures prepared in advance): the time and the allocations counted start here.
    func startClock() {
        if countsAllocations { MallocInterposerSwift.reset() }
        clockStart = DispatchTime.now().uptimeNanoseconds
    }

    /// Call before untimed teardown (settling what the timed part left pending): the time stops here.
    func stopClock() {
        clockEnd = DispatchTime.now().uptimeNanoseconds
    }

    /// Call after the body's own bookkeeping (arrays reserved up front) and before the first item is created.
    func markStart() {
        if countsAllocations { start = MallocInterposerSwift.getStatistics() }
    }

    /// Call once every item is created, has its handler and is still pending.
    func markPending() {
        if countsAllocations { pending = MallocInterposerSwift.getStatistics() }
    }

    /// Net heap bytes (allocated minus freed) between ``markStart()`` and ``markPending()``, if both were called.
    var heapBytesWhilePending: Int? {
        guard let start, let pending else { return nil }
        return (pending.mallocBytesCount - pending.freeBytesCount) - (start.mallocBytesCount - start.freeBytesCount)
    }
}
