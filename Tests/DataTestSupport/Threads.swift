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
