import Dispatch
import Foundation
import Interactors
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// MARK: The library's own threads (issue 27)
//
// Whatever the library schedules must not wait for Dispatch's global pool: a retry's back-off, a delay, the stages
// of a timed-out response. These rows time the same call with the pool idle and with it saturated on purpose (every
// thread the pool will start parked on a semaphore), and the settlement costs the review found quadratic or
// wasteful: handlers on many distinct queues, timeouts made and settled one after another.

extension BenchmarkCase {
    /// The rows of this file, in table order.
    static let libraryThreads: [BenchmarkCase] =
        [retryWithThePool(saturated: false), retryWithThePool(saturated: true)]
        + [timedOutMapsWithThePoolSaturated]
        + [2_000, 8_000, 16_000].map { distinctQueues(n: $0) }
        + [timeoutsMadeAndSettled]

    /// `Response.retry(times: 1, delay: 100 ms)` whose first attempt fails at once, waited for with `get()`.
    static func retryWithThePool(saturated: Bool) -> BenchmarkCase {
        BenchmarkCase(
            id: "threads-retry-\(saturated ? "saturated" : "idle")",
            title: "`retry(times: 1, delay: 100 ms)`, then `get()`, pool \(saturated ? "saturated" : "idle")",
            iterations: 1,
            quickIterations: 1,
            itemsPerRound: 1,
            table: .scale,
            samples: (full: 5, quick: 1),
            contenders: [
                .sync(.response, "first attempt fails at once, the second succeeds") { run in
                    let pool = saturated ? ParkedPool() : nil
                    let attempts = AttemptCount()
                    run.startClock()
                    let retried = Response<Int>.retry(times: 1, delay: .milliseconds(100)) {
                        let attempt = attempts.next()
                        return attempt == 1 ? Response(error: RetryFailure()) : Response(value: attempt)
                    }
                    blackHole(try? retried.get(timeout: .seconds(20)))
                    run.stopClock()
                    pool?.release()
                }
            ]
        )
    }

    /// With the pool saturated, 32 threads of their own each blocked in `get()` on its own `timeout(after: 200 ms)
    /// .map { … }` of one pending response: the time until every one has returned. The `map` is settled by the
    /// timed response's delivery, which the old code handed to a global queue.
    static let timedOutMapsWithThePoolSaturated = BenchmarkCase(
        id: "threads-timeout-map-32",
        title: "32 threads blocked on `timeout(after: 200 ms).map`, pool saturated, until all return",
        iterations: 1,
        quickIterations: 1,
        itemsPerRound: 1,
        table: .scale,
        samples: (full: 3, quick: 1),
        contenders: [
            .sync(.response, "each `get()` on a thread of its own") { run in
                let pool = ParkedPool()
                let (slow, resolver) = Response<Int>.makePending()
                let returned = DispatchSemaphore(value: 0)
                run.startClock()
                for _ in 0..<32 {
                    let mapped = slow.timeout(after: .milliseconds(200)).map { $0 + 1 }
                    Thread.detachNewThread {
                        blackHole(try? mapped.get(timeout: .seconds(20)))
                        returned.signal()
                    }
                }
                for _ in 0..<32 { returned.wait() }
                run.stopClock()
                pool.release()
                resolver.succeed(0)
            }
        ]
    )

    /// One pending response with one handler on each of `n` distinct queues, settled.
    static func distinctQueues(n: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "threads-distinct-queues-\(n)",
            title: "settle one response with handlers on \(n.formatted) distinct queues",
            iterations: 1,
            quickIterations: 1,
            itemsPerRound: n,
            table: .scale,
            samples: (full: 7, quick: 2),
            contenders: [
                .sync(.response, "`onCompletion(on:)` on each of n queues that keep their jobs; then `succeed`") {
                    run in
                    let queues = (0..<n).map { _ in KeepingQueue() }
                    let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                    for queue in queues { response.onCompletion(on: queue) { blackHole($0) } }
                    run.startClock()
                    resolver.succeed(1)
                    run.stopClock()
                    blackHole(queues)
                }
            ]
        )
    }

    /// 20,000 × (make a pending response, `timeout(after: 600 s)`, settle it): none pending at a time.
    static let timeoutsMadeAndSettled = BenchmarkCase(
        id: "threads-timeouts-one-by-one-20000",
        title: "20,000 × `timeout(after: 600 s)` made, then its response settled",
        iterations: 1,
        quickIterations: 1,
        itemsPerRound: 20_000,
        table: .scale,
        samples: (full: 7, quick: 2),
        contenders: [
            .sync(.response, "`makePending`, `timeout(after: .seconds(600))`, `succeed`, one after another") { run in
                let switchesBefore = contextSwitchesInThisProcess()
                run.startClock()
                for index in 0..<20_000 {
                    let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                    let timed = response.timeout(after: .seconds(600))
                    resolver.succeed(index)
                    blackHole(timed)
                }
                run.stopClock()
                let switches = contextSwitchesInThisProcess() - switchesBefore
                FileHandleStandardError.write("threads-timeouts-one-by-one-20000: \(switches) context switches\n")
            }
        ]
    )
}

private struct RetryFailure: Error {}

/// Counts a retry's attempts.
private final class AttemptCount: Sendable {
    private let count = Atomic<Int>(0)

    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// Dispatch's global pool with every thread it has, and will start soon, parked on a semaphore until `release()`:
/// jobs are parked 32 at a time, each batch followed by a probe, until a probe has not run 100 ms after it was
/// queued. Work queued to the pool after them waits until the pool grows again (on Linux, by a thread now and
/// then), as behind the issue's app's 128 blocking jobs. Adaptive, because the pool keeps the threads it grew:
/// a fixed number of parked jobs saturates a fresh process but not one whose pool an earlier sample grew.
private final class ParkedPool: Sendable {
    private let parked = DispatchSemaphore(value: 0)
    private let count = Atomic<Int>(0)

    init() {
        while count.load(ordering: .relaxed) < 4_096 {
            for _ in 0..<32 { DispatchQueue.global().async { [parked] in parked.wait() } }
            count.add(32, ordering: .relaxed)
            let probe = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { probe.signal() }
            if probe.wait(timeout: .now() + .milliseconds(100)) == .timedOut { break }
        }
    }

    func release() {
        for _ in 0..<count.load(ordering: .relaxed) { parked.signal() }
    }
}

/// A queue that keeps the jobs it is handed, never running them.
private final class KeepingQueue: CallbackQueue {
    private let jobs = Mutex<[@Sendable () -> Void]>([])

    func schedule(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
    }
}

/// Voluntary and involuntary context switches of every thread of the process so far (`getrusage`); 0 where the
/// benchmarks do not read them (off Linux).
private func contextSwitchesInThisProcess() -> Int {
    #if os(Linux)
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_nvcsw + usage.ru_nivcsw)
    #else
    return 0
    #endif
}

/// Standard error, without Foundation.
private enum FileHandleStandardError {
    static func write(_ text: String) {
        #if os(Linux)
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
        #endif
    }
}
