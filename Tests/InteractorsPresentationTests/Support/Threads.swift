import Interactors

/// Runs `body(index)` for each index on a thread of its own, all at once, and returns when all have finished.
/// Real threads rather than a dispatch queue, which may run several jobs one after another on one thread.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let threads = (0..<count).map { index in PlatformThread { body(index) } }
    for thread in threads { thread.join() }
}
