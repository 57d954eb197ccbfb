import Interactors

/// A POSIX thread of its own (Dispatch's pool caps its threads, and contention tests want more threads than
/// cores), joined with ``join()``.
final class TestThread: Sendable {
    private let thread: PlatformThread

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        thread = PlatformThread(body)
    }

    /// Waits for the thread to finish.
    func join() {
        thread.join()
    }

    /// Runs `body(index)` on `count` new threads at once, and returns when all have finished.
    static func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = Gate()
        let threads = (0..<count).map { index in
            TestThread {
                start.wait()
                body(index)
            }
        }
        start.open(count: count)
        for thread in threads { thread.join() }
    }
}

/// Runs `body`, which blocks, on a thread of its own and suspends until it returns: a test that waits for seconds
/// then holds none of the few threads Swift's cooperative pool runs the tests on.
func onAThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        PlatformThread.detach { continuation.resume(returning: body()) }
    }
}
