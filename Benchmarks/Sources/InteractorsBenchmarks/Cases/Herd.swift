import Dispatch
import Foundation
import Interactors
import Synchronization

// MARK: A settlement wakes only its own callers (issue 32, defect 5)
//
// A caller blocked on a composed response may owe work to its own queue, so something has to wake it when such work
// may have appeared. These rows measure what that costs everyone else: the processor time (every thread of the
// process) of a `flatMap` that moves to a pending response, and of a timeout that fires, with 0, 32 and 128 callers
// blocked meanwhile on compositions that have nothing to do with them. A thread-per-request server has that many
// blocked; the target is that they cost at most 2x the time with none.

extension BenchmarkCase {
    /// The rows of this file, in table order.
    static let herd: [BenchmarkCase] =
        [0, 32, 128].map { flatMapSwitches(blocked: $0) } + [0, 32, 128].map { firedTimeouts(blocked: $0) }

    /// 10,000 × (`flatMap` to a pending response, settle the first, then the second), `blocked` callers elsewhere.
    static func flatMapSwitches(blocked: Int) -> BenchmarkCase {
        let id = "herd-flatmap-\(blocked)"
        return BenchmarkCase(
            id: id,
            title: "`flatMap` switch to a pending response, \(blocked) unrelated callers blocked (processor time)",
            iterations: 10_000,
            quickIterations: 500,
            table: .scale,
            samples: (full: 11, quick: 2),
            contenders: [
                .sync(.response, "`first.flatMap { _ in second }`, settle `first`, then `second`") { run in
                    let herd = BlockedHerd(callers: blocked)
                    let clock = ProcessorClock(run)
                    for index in 0..<run.iterations {
                        let (first, firstResolver) = Response<Int>.makePending(callbackQueue: .immediate)
                        let (second, secondResolver) = Response<Int>.makePending(callbackQueue: .immediate)
                        let switched = first.flatMap { _ in second }
                        firstResolver.succeed(index)
                        secondResolver.succeed(index)
                        blackHole(switched)
                    }
                    clock.record(id, .response)
                    herd.release()
                }
            ],
            targets: blocked == 0
                ? []
                : [
                    .processorTime(
                        id,
                        .response,
                        to: "herd-flatmap-0",
                        atMost: 2,
                        "≤ 2x the processor time with no caller blocked"
                    )
                ]
        )
    }

    /// 5,000 `timeout(after: 1 ms)` of pending responses, each firing, until the last has been delivered.
    static func firedTimeouts(blocked: Int) -> BenchmarkCase {
        let id = "herd-timeouts-\(blocked)"
        let count = 5_000
        return BenchmarkCase(
            id: id,
            title: "\(count.formatted) timeouts fire, \(blocked) unrelated callers blocked (processor time)",
            iterations: 1,
            quickIterations: 1,
            itemsPerRound: count,
            table: .scale,
            samples: (full: 7, quick: 1),
            contenders: [
                .sync(.response, "`timeout(after: 1 ms)` on \(count.formatted) pending responses, a handler each") {
                    run in
                    let herd = BlockedHerd(callers: blocked)
                    let (pending, resolver) = Response<Int>.makePending()
                    let delivered = Atomic<Int>(0)
                    let allDelivered = DispatchSemaphore(value: 0)
                    let clock = ProcessorClock(run)
                    for _ in 0..<count {
                        pending.timeout(after: .milliseconds(1)).onFailure(on: .immediate) { _ in
                            if delivered.add(1, ordering: .relaxed).newValue == count { allDelivered.signal() }
                        }
                    }
                    allDelivered.wait()
                    clock.record(id, .response)
                    resolver.succeed(0)
                    herd.release()
                }
            ],
            targets: blocked == 0
                ? []
                : [
                    .processorTime(
                        id,
                        .response,
                        to: "herd-timeouts-0",
                        atMost: 2,
                        "≤ 2x the processor time with no caller blocked"
                    )
                ]
        )
    }
}

/// `callers` threads of their own, each blocked in `get()` on a `map` of one pending response (a composition, so
/// each may owe work to its queue and is woken when such work may appear), until ``release()``.
private final class BlockedHerd: Sendable {
    private let resolver: Resolver<Int>
    private let returned = DispatchSemaphore(value: 0)
    private let callers: Int

    init(callers: Int) {
        self.callers = callers
        let (gate, resolver) = Response<Int>.makePending()
        self.resolver = resolver
        let blocked = DispatchSemaphore(value: 0)
        for _ in 0..<callers {
            let waited = gate.map { $0 + 1 }
            Thread.detachNewThread { [returned] in
                blocked.signal()
                blackHole(try? waited.get(timeout: .seconds(600)))
                returned.signal()
            }
        }
        for _ in 0..<callers { blocked.wait() }
        // Past the spin before parking: each caller is asleep on its semaphore.
        Thread.sleep(forTimeInterval: 0.05)
    }

    func release() {
        resolver.succeed(0)
        for _ in 0..<callers { returned.wait() }
    }
}
