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
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
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
