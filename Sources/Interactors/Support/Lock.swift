public import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The library's one lock: a word-sized spin-then-yield lock built on `Synchronization.Atomic`.
///
/// Why not `pthread_mutex_t` or `Synchronization.Mutex`: a pthread mutex must not move, so it needs a heap
/// allocation of its own, and a `Response` has to stay a single allocation; `Mutex` makes ThreadSanitizer on
/// Linux report false races, and CI runs TSan. An `Atomic` stored in a class has a stable address, costs four
/// bytes, and its acquire/release ordering is what TSan understands.
///
/// Every critical section in the library is a few loads and stores (never user code, never a wait), so a
/// short spin finds the lock free; past that the waiter yields its core to whoever holds it.
///
/// `@usableFromInline` so the response's hot paths can be `@inlinable`, specialised in the caller's module.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
    // @unchecked: the only stored property is an Atomic, which is Sendable; ~Copyable types need the spelling.
    @usableFromInline
    let word = Atomic<UInt32>(0)

    @inlinable
    package init() {}

    /// Takes the lock, spinning briefly and then yielding until it is free.
    @inlinable @inline(__always)
    package func lock() {
        if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
        lockSlowly()
    }

    @usableFromInline @inline(never)
    func lockSlowly() {
        var spins = 0
        while true {
            // Read before trying again so a spinning core does not keep stealing the cache line.
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    /// Releases the lock.
    @inlinable @inline(__always)
    package func unlock() {
        word.store(0, ordering: .releasing)
    }

    /// Runs `body` with the lock held. `body` must not call user code or block.
    @inlinable @inline(__always)
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

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
        return try body(&state)
    }
}
