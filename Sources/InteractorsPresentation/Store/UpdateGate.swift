import Dispatch
import Interactors

/// Lets one update of a store run at a time, and turns an update made from inside another one on the same
/// thread (which could only wait for itself) into a clear error instead of a hang.
///
/// A semaphore rather than the library's spin lock: the holder runs user code (the change), which may take a
/// while, and waiters should sleep rather than spin. The semaphore orders updaters only; the state itself is
/// read and written under the store's `LockedBox`.
final class UpdateGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    /// The thread inside `withGate` now, if any. Only that thread ever sets its own identity here, so a thread
    /// that reads its own identity is certainly inside.
    private let holder = LockedBox<UInt?>(nil)

    func withGate<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let thread = currentThreadID()
        if holder.withLock({ $0 == thread }) {
            preconditionFailure(
                """
                InteractorsPresentation: Store.update(_:) was called from inside another update of the same \
                store, on the same thread (from a change closure, a translator, or an observation onChange). \
                The outer change has not been stored yet, so the inner one could only be lost or wait forever. \
                Dispatch an action to the presenter instead, or update the store after the change returns.
                """
            )
        }
        semaphore.wait()
        holder.withLock { $0 = thread }
        defer {
            holder.withLock { $0 = nil }
            semaphore.signal()
        }
        return try body()
    }
}
