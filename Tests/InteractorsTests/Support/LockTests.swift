import Dispatch
import Interactors
import TestThreads
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A counter guarded by the library's `Lock`, stored inline in a class as `Response` stores it.
private final class GuardedCounter: @unchecked Sendable {
    // @unchecked: `value` is only touched with `lock` held.
    let lock = Lock()
    var value = 0
}

@Suite(.onThreadsOfTheirOwn) struct LockTests {
    @Test func lockKeepsACounterExactUnderContentionFromManyThreads() {
        let counter = GuardedCounter()
        let threads = 16
        let increments = 20_000
        TestThread.runConcurrently(threads) { _ in
            for _ in 0..<increments {
                counter.lock.lock()
                counter.value += 1
                counter.lock.unlock()
            }
        }
        #expect(counter.lock.withLock { counter.value } == threads * increments)
    }

    @Test func withLockReturnsTheBodysValueAndReleasesTheLockWhenItThrows() {
        struct Failure: Error {}
        let counter = GuardedCounter()
        #expect(throws: Failure.self) { try counter.lock.withLock { () throws(Failure) in throw Failure() } }
        #expect(counter.lock.withLock { 42 } == 42)
    }

    #if os(Linux)
    /// The waiter must go to sleep in the kernel on the lock's own word: a sleep keyed by any other address would
    /// never be woken, and this test would hit its guard timeout.
    @Test func aThreadSleepingOnTheHeldLockWakesWhenItIsReleased() throws {
        let counter = GuardedCounter()
        counter.lock.lock()
        let waiterID = LockedBox<pid_t?>(nil)
        let acquired = Gate()
        let waiter = TestThread {
            waiterID.withLock { $0 = LockTests.currentKernelThreadID() }
            counter.lock.lock()
            counter.value += 1
            counter.lock.unlock()
            acquired.open()
        }
        // Wait (guarded) until the waiter sleeps in the kernel, which it does only past its bounded spin.
        var asleep = false
        for _ in 0..<10_000 where !asleep {
            if let id = waiterID.withLock({ $0 }), threadState(id) == "S" { asleep = true } else { sched_yield() }
            if !asleep { usleep(1_000) }
        }
        #expect(asleep)
        counter.value += 1
        counter.lock.unlock()
        #expect(acquired.wait())
        #expect(counter.lock.withLock { counter.value } == 2)
        waiter.join()
    }

    /// The calling thread's kernel id, from /proc/thread-self ("PID/task/TID"): Glibc's `gettid` is not imported.
    private static func currentKernelThreadID() -> pid_t? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.split(separator: "/").last.flatMap { pid_t($0) }
    }

    /// The scheduler state letter of one of this process's threads (`S`: sleeping), from /proc.
    private func threadState(_ id: pid_t) -> Character? {
        guard let file = fopen("/proc/self/task/\(id)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // "pid (name) S ...": the state follows the last closing parenthesis.
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(after: close)...].first { $0 != " " }
    }
    #endif

    @Test func lockedBoxWithNoStateIsRaceFreeAcrossThreads() {
        // A zero-sized state used to be accessed on the box's object header (see `LockedBox.withLock`), which
        // ThreadSanitizer reported against other threads retaining the box. Under `--sanitize=thread` this is
        // the reproduction; without it, the box must still serialise the bodies.
        let box = LockedBox(())
        let inside = LockedBox(0)
        TestThread.runConcurrently(8) { _ in
            for _ in 0..<2_000 {
                let retained = box
                retained.withLock { _ in inside.withLock { $0 += 1 } }
            }
        }
        #expect(inside.withLock { $0 } == 16_000)
    }
}
