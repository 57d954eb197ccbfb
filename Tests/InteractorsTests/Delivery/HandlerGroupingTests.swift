import Dispatch
import Interactors
import TestThreads
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A settlement hands each queue its handlers in one job, in registration order, and finds each handler's queue
/// in constant time: its cost grows with the handlers, not with the handlers times the distinct queues.
@Suite(.onThreadsOfTheirOwn) struct HandlerGroupingTests {
    @Test func eachQueueGetsOneJobWithItsHandlersInOrder() {
        let queues = (0..<20).map { _ in CollectingQueue() }
        let order = Recorder<Int>()
        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        for round in 0..<3 {
            for (index, queue) in queues.enumerated() {
                response.onCompletion(on: queue) { _ in order.record(round * 100 + index) }
            }
        }
        resolver.succeed(1)
        #expect(queues.allSatisfy { $0.jobCount == 1 })
        for queue in queues { queue.runAll() }
        let expected = queues.indices.flatMap { index in (0..<3).map { $0 * 100 + index } }
        #expect(order.elements == expected)
    }

    @Test func settlingWithHandlersOnManyDistinctQueuesCostsLinearly() {
        // Linear is 4x for four times the queues, a search per handler among the queues seen so far 16x. Timed in
        // the thread's own CPU time, interleaved, best of several each: what other threads do meanwhile (a busy
        // machine, the tests running beside this one) falls out of both alike.
        var small: [Duration] = []
        var large: [Duration] = []
        for _ in 0..<5 {
            small.append(settlementTime(distinctQueues: 2_000))
            large.append(settlementTime(distinctQueues: 8_000))
        }
        #expect(large.min()! <= small.min()! * 8)
    }

    /// The CPU time settling takes one response with one handler on each of `distinctQueues` queues.
    private func settlementTime(distinctQueues: Int) -> Duration {
        let queues = (0..<distinctQueues).map { _ in CollectingQueue() }
        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        for queue in queues { response.onCompletion(on: queue) { _ in } }
        let start = threadCPUTime()
        resolver.succeed(1)
        let elapsed = threadCPUTime() - start
        #expect(queues.allSatisfy { $0.jobCount == 1 })
        return elapsed
    }
}

/// The CPU time the calling thread has used so far.
private func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
}

/// A queue that keeps the jobs it is handed until the test runs them.
private final class CollectingQueue: CallbackQueue {
    private let jobs = LockedBox<[@Sendable () -> Void]>([])

    func schedule(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
    }

    var jobCount: Int { jobs.withLock { $0.count } }

    func runAll() {
        for job in jobs.withLock({ $0 }) { job() }
    }
}
