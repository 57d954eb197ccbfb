import Foundation
import Interactors

/// The rule of issue 32, for the tests of each component: however many handlers and stages block at once (each on
/// a response that settles only later), every other call still answers within 200 ms of its median with nothing
/// blocked, and none takes over a second.
package enum BlockedCallers {
    /// How many handlers and stages the tests block at once.
    package static let count = 64
    /// How much longer than with nothing blocked the median call may take.
    package static let allowance: Duration = .milliseconds(200)
    /// The longest any call may take.
    package static let ceiling: Duration = .seconds(1)

    /// What a call took, over several runs.
    package struct Times: Sendable, CustomStringConvertible {
        package let median: Duration
        package let longest: Duration

        package var description: String { "median \(median), longest \(longest)" }

        /// Whether these times, taken with callers blocked, keep the rule against `idle`, taken with none.
        package func keepTheRule(against idle: Times) -> Bool {
            median <= idle.median + BlockedCallers.allowance && longest <= BlockedCallers.ceiling
        }
    }

    /// Times `runs` calls of `call`, one after another.
    package static func time(runs: Int = 20, _ call: () throws -> Void) rethrows -> Times {
        let clock = ContinuousClock()
        var times: [Duration] = []
        for _ in 0..<runs { times.append(try clock.measure(call)) }
        times.sort()
        return Times(median: times[times.count / 2], longest: times[times.count - 1])
    }
}

/// Something a blocked handler or stage waits for, which the test settles once it has measured: a response the
/// app settles later, waited for with `get()` (one of the library's own waits).
package final class HeldAnswer: Sendable {
    private let answer: Response<Void>
    private let resolver: Resolver<Void>
    private let entered = LockedBox(0)

    package init() {
        (answer, resolver) = Response<Void>.makePending()
    }

    /// Blocks the calling handler or stage until ``release()``.
    package func wait() {
        entered.withLock { $0 += 1 }
        _ = try? answer.get()
    }

    /// How many handlers and stages have started waiting.
    package var waiting: Int { entered.withLock { $0 } }

    /// Waits, polling, until `count` have started waiting, or `guardSeconds` ran out; whether they did.
    package func waitUntilWaiting(_ count: Int, guardSeconds: Double = 30) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(guardSeconds)
        while waiting < count {
            guard clock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// Lets every waiter go.
    package func release() {
        resolver.succeed(())
    }

    deinit {
        resolver.succeed(())
    }
}
