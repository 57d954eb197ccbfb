public import Synchronization

#if !canImport(Darwin)
import CInteractorsFutex
#endif
#if !canImport(Darwin) && !os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#endif

/// The library's one lock: a 4-byte lock stored inline in its owner (a `Response` stays a single allocation),
/// chosen per platform.
///
/// - Darwin: `os_unfair_lock`, through `Synchronization.Mutex<Void>`, which stores it inline. A waiter sleeps in
///   the kernel and donates its priority to the owner, so a user-interactive thread never starves a
///   background-QoS owner by spinning (why Apple deprecated `OSSpinLock`).
/// - Linux: a futex lock (Drepper's "Futexes Are Tricky", mutex 3) on a `Synchronization.Atomic<UInt32>`:
///   0 free, 1 held, 2 held with sleepers. Taking it is one acquiring compare-and-exchange, which ThreadSanitizer
///   understands; a contended waiter spins briefly, then sleeps in `FUTEX_WAIT_PRIVATE`; releasing it is one
///   releasing exchange, and calls the kernel only if someone sleeps. Not `Synchronization.Mutex`: it makes
///   ThreadSanitizer on Linux report false races, and CI runs TSan.
/// - Elsewhere: the same word, spinning then yielding.
///
/// Every critical section in the library is a few loads and stores (never user code, never a wait, never a call
/// into Dispatch), so the lock is nearly always free, and when it is not, it is freed within nanoseconds unless
/// its owner was preempted: then sleeping beats spinning.
///
/// `@usableFromInline` so the response's hot paths can be `@inlinable`, specialised in the caller's module.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
    // @unchecked: the only stored property is a Mutex or an Atomic, both Sendable; ~Copyable types need the
    // spelling.

    #if canImport(Darwin)
    @usableFromInline
    let mutex = Mutex<Void>(())
    #else
    /// 0: free; 1: held, nobody sleeping; 2: held, and a thread may sleep on the word (unlock must wake one).
    @usableFromInline
    let word = Atomic<UInt32>(0)
    #endif

    @inlinable
    package init() {}

    /// Takes the lock, sleeping until it is free.
    @inlinable @inline(__always)
    package func lock() {
        #if canImport(Darwin)
        mutex._unsafeLock()
        #else
        if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
        lockSlowly()
        #endif
    }

    /// Releases the lock, waking one sleeping waiter if there is one.
    @inlinable @inline(__always)
    package func unlock() {
        #if canImport(Darwin)
        mutex._unsafeUnlock()
        #else
        if word.exchange(0, ordering: .releasing) != 1 { wakeOneWaiter() }
        #endif
    }

    /// Runs `body` with the lock held. `body` must not call user code or block.
    @inlinable @inline(__always)
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

#if !canImport(Darwin)
extension Lock {
    /// How many times a contended `lock()` re-checks the word before it sleeps: about a microsecond, the length
    /// of a few critical sections. Past that the owner is most likely preempted, and only sleeping lets it run.
    private static var spinLimit: Int { 100 }

    @usableFromInline @inline(never)
    func lockSlowly() {
        for _ in 0..<Lock.spinLimit {
            interactors_cpu_relax()
            // Read before trying again so a spinning core does not keep stealing the cache line.
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
        }
        // Mark the lock contended (2) whenever we take it from here on: we cannot know whether other sleepers
        // remain, so our unlock must wake one.
        while word.exchange(2, ordering: .acquiring) != 0 {
            sleep(whileWordIs: 2)
        }
    }

    @usableFromInline @inline(never)
    func wakeOneWaiter() {
        #if os(Linux)
        withWordAddress { interactors_futex_wake_one($0) }
        #endif
    }

    private func sleep(whileWordIs expected: UInt32) {
        #if os(Linux)
        withWordAddress { interactors_futex_wait($0, expected) }
        #else
        sched_yield()
        #endif
    }

    /// The address of the atomic word itself (the futex is keyed by it). `Atomic` is laid out like its `UInt32`
    /// and, being non-copyable with a raw layout, is always borrowed in place: this is the word's real address,
    /// which `aThreadSleepingOnTheHeldLockWakesWhenItIsReleased` in the tests checks (a sleep keyed by any other
    /// address would never be woken).
    private func withWordAddress(_ body: (UnsafeMutablePointer<UInt32>) -> Void) {
        withUnsafePointer(to: word) { pointer in
            body(UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: UInt32.self))
        }
    }
}
#endif

/// A value guarded by a ``Lock``, for the library's few process-wide settings and registries, and (through
/// `package` access) for the test kit and the tests.
package final class LockedBox<State>: @unchecked Sendable {
    // @unchecked: `state` is only read or written inside `lock.withLock`.
    private let lock = Lock()
    private var state: State

    package init(_ state: State) { self.state = state }

    package func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        if MemoryLayout<State>.size == 0 {
            // A zero-sized stored property of a generic class sits at offset 0, on the object's header, so an
            // inout access to it is, for ThreadSanitizer, a write to the header that races every other thread's
            // retain or metadata read. There is nothing to store: lend the body a local instead.
            var nothing = state
            return try body(&nothing)
        }
        return try body(&state)
    }
}
