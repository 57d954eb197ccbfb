import Dispatch
import Synchronization

/// Threads parked until something changes that may give them something to do, woken all at once by
/// ``notify()``, which they answer by looking again. Cheap when nobody is parked: ``notify()`` is then one atomic
/// load.
final class WakeUpList: Sendable {
    /// Callers parked in `get()` and friends on the main queue (or the main thread): a job the library schedules
    /// to the main queue wakes them, since they run such jobs in its place (see `MainCallbackQueue`). Callers
    /// elsewhere are woken only by the responses on their path (see `BlockedCallerWatch`).
    static let mainQueueCallers = WakeUpList()

    /// Threads waiting for code that others may wait for (a factory's build, a registry's delivery), woken when a
    /// thread running such code, or work it waits for, blocks: the waiter then checks again whether it is itself
    /// awaited (see ``WaitRecord``).
    static let dependencyWaiters = WakeUpList()

    private let parked = Atomic<Int>(0)
    private let semaphores = LockedBox<[DispatchSemaphore]>([])

    private init() {}

    /// Registers `wakeUp` to be signalled by ``notify()``. Call before looking, so that a change published after
    /// the look is seen through a signal.
    func register(_ wakeUp: DispatchSemaphore) {
        semaphores.withLock { $0.append(wakeUp) }
        parked.add(1, ordering: .sequentiallyConsistent)
    }

    /// Removes `wakeUp`, once its thread stops waiting.
    func unregister(_ wakeUp: DispatchSemaphore) {
        parked.subtract(1, ordering: .sequentiallyConsistent)
        semaphores.withLock { list in
            if let index = list.firstIndex(where: { $0 === wakeUp }) { list.remove(at: index) }
        }
    }

    /// Wakes every parked thread to look again. Call after publishing the change.
    ///
    /// The semaphores are copied into a buffer of their own under the lock, then signalled after it: a copy of
    /// the array would share its buffer, which `unregister` may then change in place under the lock while this
    /// reads it (its uniqueness check can see the copy already released), a race ThreadSanitizer reports.
    func notify() {
        guard parked.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let all = semaphores.withLock { list in list.map { $0 } }
        for semaphore in all { semaphore.signal() }
    }
}
