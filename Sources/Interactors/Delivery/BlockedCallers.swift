import Dispatch
import Synchronization

/// The callers parked in `get()` right now, so that a change that may give one of them work to run in its place
/// wakes it to look again.
///
/// A caller blocked on a serial queue can only ever be unblocked by work queued to that queue if it runs that
/// work itself. Such work may appear after the wait began: a `flatMap` stage, run on another thread, returns a
/// response whose work is queued to the caller's queue, or a main-queue job is scheduled while the main queue
/// is blocked. Those places call ``notify()``; each parked caller then walks what it waits on again.
///
/// Cheap when nobody is parked: ``notify()`` is then one atomic load.
enum BlockedCallers {
    private static let parked = Atomic<Int>(0)
    private static let semaphores = LockedBox<[DispatchSemaphore]>([])

    /// Registers `wakeUp` to be signalled by ``notify()``. Call before looking for work to run, so that work
    /// published after the look is seen through a signal.
    static func register(_ wakeUp: DispatchSemaphore) {
        semaphores.withLock { $0.append(wakeUp) }
        parked.add(1, ordering: .sequentiallyConsistent)
    }

    /// Removes `wakeUp`, once its caller stops waiting.
    static func unregister(_ wakeUp: DispatchSemaphore) {
        parked.subtract(1, ordering: .sequentiallyConsistent)
        semaphores.withLock { list in
            if let index = list.firstIndex(where: { $0 === wakeUp }) { list.remove(at: index) }
        }
    }

    /// Wakes every parked caller to look again for work it could run. Call after publishing the change.
    static func notify() {
        guard parked.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let all = semaphores.withLock { $0 }
        for semaphore in all { semaphore.signal() }
    }
}
