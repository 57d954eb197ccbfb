import Dispatch
import Foundation

/// Runs `body` on `count` threads of their own at once (not Dispatch's pool, which on a two-core machine runs
/// two at a time), and waits for all of them.
package func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            finished.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    finished.wait()
}

/// Runs `body`, which blocks (for a child process to start, say), on a thread of its own and suspends until it
/// returns: a test's set-up then holds none of the few threads Swift's cooperative pool runs every test on (two on
/// a two-core machine), which would otherwise wait with it.
package func onAThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
