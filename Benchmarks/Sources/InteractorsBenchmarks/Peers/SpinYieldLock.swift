import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A copy of the library's `Lock` before issue 8 (kept here only, to compare): a word-sized spin-then-yield lock.
/// 64 failed re-checks, then `sched_yield` between tries; no sleeping, no priority donation.
struct SpinYieldLock: ~Copyable, @unchecked Sendable {
    // @unchecked: the only stored property is an Atomic, which is Sendable; ~Copyable types need the spelling.
    let word = Atomic<UInt32>(0)

    init() {}

    @inline(__always)
    func lock() {
        if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
        lockSlowly()
    }

    @inline(never)
    func lockSlowly() {
        var spins = 0
        while true {
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    @inline(__always)
    func unlock() {
        word.store(0, ordering: .releasing)
    }
}

/// A `pthread_mutex_t` (default attributes): it must not move, so it lives in an allocation of its own, the cost
/// that kept it out of `Response`.
final class PthreadMutex: @unchecked Sendable {
    // @unchecked: the mutex is only used through pthread calls, which synchronise.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }
}
