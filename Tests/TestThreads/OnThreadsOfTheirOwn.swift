import Interactors
package import Testing

/// Runs a suite's tests on threads of their own instead of Swift's cooperative pool.
///
/// A synchronous test runs on the cooperative pool, which has as many threads as the machine has cores: two
/// tests that block there (on a response, a gate, a child process) hold all of it on a two-core machine, and
/// every other test's tasks wait, some past their guards. With this trait each job of the test's task (the whole
/// body of a synchronous test) runs on a new thread, so a test blocks only itself, as the blocking calls it tests
/// would block an app's own thread. Tasks the test starts inherit the preference.
package struct OnThreadsOfTheirOwn: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }  // the suite as a whole: nothing to move
        await TestSlots.shared.acquire()
        defer { TestSlots.shared.release() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

/// How many of these tests run at once: enough that tests blocked waiting (for a child process, a server, a
/// guard) leave the cores to others, few enough that tests racing the clock (a pool that grows by a thread a
/// second, a guard against a hang) are not starved by hundreds of runnable threads on two cores. A test waits
/// for a slot by suspending, never by blocking, and a test holding one never waits for another test.
private final class TestSlots: Sendable {
    static let shared = TestSlots(count: 8)

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: LockedBox<State>

    private init(count: Int) { state = LockedBox(State(free: count)) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()  // the slot passes to the longest waiter
        }
        next?.resume()
    }
}

extension Trait where Self == OnThreadsOfTheirOwn {
    /// Runs each test on threads of its own, not on Swift's cooperative pool (see ``OnThreadsOfTheirOwn``).
    package static var onThreadsOfTheirOwn: Self { Self() }
}

/// A task executor that runs every job on a new thread: it never runs out of threads, so no job waits for one
/// that another job blocks.
package final class ThreadPerJobExecutor: TaskExecutor {
    package static let shared = ThreadPerJobExecutor()

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        PlatformThread.detach { job.runSynchronously(on: executor) }
    }
}
