import Dispatch
import Interactors
import TestThreads
import Testing

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
        // Best of several rounds each, so a busy machine's pauses fall out; linear is 4x, quadratic 16x.
        let small = (0..<5).map { _ in settlementTime(distinctQueues: 2_000) }.min()!
        let large = (0..<5).map { _ in settlementTime(distinctQueues: 8_000) }.min()!
        #expect(large <= small * 8)
    }

    /// How long settling takes one response with one handler on each of `distinctQueues` queues.
    private func settlementTime(distinctQueues: Int) -> Duration {
        let queues = (0..<distinctQueues).map { _ in CollectingQueue() }
        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        for queue in queues { response.onCompletion(on: queue) { _ in } }
        let start = ContinuousClock.now
        resolver.succeed(1)
        let elapsed = ContinuousClock.now - start
        #expect(queues.allSatisfy { $0.jobCount == 1 })
        return elapsed
    }
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
