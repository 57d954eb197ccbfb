import Dispatch
import Interactors

/// Stages (or handlers) of the library's responses that block on a response settled only once the test releases
/// them: for tests that check the library keeps answering however many of them wait (issue 32's rule).
///
/// ```swift
/// let blocked = BlockedStages(64) { body in _ = Response(value: 0).delay(by: .milliseconds(1)).map { _ in body() } }
/// defer { blocked.release() }
/// #expect(blocked.allEntered)
/// ```
package final class BlockedStages: Sendable {
    private let resolver: Resolver<Int>
    private let held: Response<Int>
    private let entered = DispatchSemaphore(value: 0)
    private let returned = DispatchSemaphore(value: 0)
    private let count: Int
    /// Whether every stage began blocking before the guard ran out.
    package let allEntered: Bool

    /// Starts `count` stages through `start`, which runs the body it is given as a stage (or handler) of the
    /// component under test; each body blocks in `get()` until ``release()``. Returns once every body has begun to
    /// block (or after `guardSeconds`).
    package init(
        _ count: Int,
        guardSeconds: Double = 20,
        start: (_ body: @escaping @Sendable () -> Void) -> Void
    ) {
        (held, resolver) = Response<Int>.makePending()
        self.count = count
        for _ in 0..<count {
            start { [held, entered, returned] in
                entered.signal()
                _ = try? held.get(timeout: .seconds(guardSeconds))
                returned.signal()
            }
        }
        let deadline = DispatchTime.now() + guardSeconds
        var all = true
        for _ in 0..<count where entered.wait(timeout: deadline) == .timedOut { all = false }
        allEntered = all
    }

    /// Settles what the stages wait on, and waits (with a guard) until every one has returned.
    package func release(guardSeconds: Double = 20) {
        resolver.succeed(0)
        let deadline = DispatchTime.now() + guardSeconds
        for _ in 0..<count { _ = returned.wait(timeout: deadline) }
    }
}

/// How long calls took: for comparing a component's answers with stages blocked against its answers without.
package struct Latencies: Sendable, CustomStringConvertible {
    package let samples: [Duration]

    /// Times `count` calls of `call`, one after another; `call` returns when its answer came.
    package init(of count: Int, _ call: () -> Void) {
        let clock = ContinuousClock()
        samples = (0..<count).map { _ in clock.measure(call) }
    }

    package var median: Duration { samples.sorted()[samples.count / 2] }
    package var maximum: Duration { samples.max() ?? .zero }

    /// Issue 32's bound: the median within 200 ms of `unblocked`'s, and no call over 1 s; three times that under a
    /// sanitizer, which slows every thread switch of a busy machine (a call of 1.01 s was seen under ThreadSanitizer
    /// in CI) and checks races, not speed: a blocked library still shows as a call that never returns in time.
    package func areWithinTheBound(of unblocked: Latencies) -> Bool {
        let slack = isUnderASanitizer ? 3 : 1
        return median <= unblocked.median + .milliseconds(200) * slack && maximum <= .seconds(1) * slack
    }

    package var description: String { "median \(median), maximum \(maximum) of \(samples.count)" }
}
