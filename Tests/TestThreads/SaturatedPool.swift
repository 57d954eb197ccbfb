import Dispatch
import Interactors

/// Dispatch's global pool with every thread it will start parked (16 jobs waiting on a semaphore), until
/// ``release()``, and a probe job queued behind them: on a 2-core Linux machine the pool gets to the probe only
/// seconds later, when it starts another thread. What finishes before the probe ran did not need the pool.
///
/// One at a time in the whole test process, whatever the target: two would park each other's probes, and while the
/// pool is parked every other test that needs it (Swift's tasks among them on Linux) waits, so a test holds it only
/// as long as its assertion needs. ``init()`` blocks until no other test holds one: call it from a thread of the
/// test's own (a suite with `.onThreadsOfTheirOwn`), never from a task on the cooperative pool.
package final class SaturatedPool: Sendable {
    private static let parkedJobs = 16
    /// The process-wide turn: one saturated pool at a time.
    private static let turn = DispatchSemaphore(value: 1)

    private let parked = DispatchSemaphore(value: 0)
    private let probeRan = LockedBox(false)
    private let released = LockedBox(false)

    /// Waits for the process-wide turn, then parks the pool.
    package init() {
        Self.turn.wait()
        for _ in 0..<Self.parkedJobs {
            DispatchQueue.global().async { [parked] in _ = parked.wait(timeout: .now() + 60) }
        }
        DispatchQueue.global().async { [probeRan] in probeRan.withLock { $0 = true } }
    }

    /// Runs `body` with the pool saturated, and releases it however `body` ends.
    package static func whileSaturated<T>(_ body: (SaturatedPool) throws -> T) rethrows -> T {
        let pool = SaturatedPool()
        defer { pool.release() }
        return try body(pool)
    }

    /// Whether the pool has not yet got to the probe, queued before anything the test did since.
    package var isStillSaturated: Bool { !probeRan.withLock { $0 } }

    /// Lets the parked jobs go and gives the turn to the next test. Idempotent; also done when the value is released.
    package func release() {
        let first = released.withLock { released -> Bool in
            defer { released = true }
            return !released
        }
        guard first else { return }
        for _ in 0..<Self.parkedJobs { parked.signal() }
        Self.turn.signal()
    }

    deinit { release() }
}
