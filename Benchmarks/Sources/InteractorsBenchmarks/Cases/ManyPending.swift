import Dispatch
import Interactors
import NIOCore
import OpenCombine
import Synchronization

/// Items per round in the many-pending cases.
private let items = 100_000

extension BenchmarkCase {
    /// 100,000 futures pending at once, each with one handler added on this thread, all settled by another.
    static let manyPendingSettledElsewhere = BenchmarkCase(
        id: "pending-elsewhere",
        title: "100,000 pending, handlers added here, settled on another thread",
        iterations: 1,
        quickIterations: 1,
        itemsPerRound: items,
        contenders: [
            .sync(.response, "`makePending` + `onCompletion(on: .immediate)` here; `succeed` all on the settler") {
                run in
                var (responses, resolvers) = pendingResponses(run)
                let settling = resolvers
                resolvers = []
                Shared.settler.sync {
                    for (index, resolver) in settling.enumerated() { resolver.succeed(index) }
                }
                blackHole(responses)
            },
            .sync(.nio, "promises of a loop, `whenSuccess` added off-loop (each hops to the loop); settled on it") {
                run in
                let loop = Shared.loop
                let promises = pendingPromises(on: loop, run)
                // The handlers are registered once the loop has run the hops queued above.
                try! loop.submit {}.wait()
                run.markPending()
                try! loop.submit {
                    for (index, promise) in promises.enumerated() { promise.succeed(index) }
                }.wait()
                blackHole(promises)
            },
            .sync(.openCombine, "`Future` + `sink` here; promises called on the settler") { run in
                var promises: [Future<Int, Never>.Promise] = []
                var cancellables: [AnyCancellable] = []
                promises.reserveCapacity(items)
                cancellables.reserveCapacity(items)
                run.markStart()
                for _ in 0..<items {
                    let future = Future<Int, Never> { promises.append($0) }
                    cancellables.append(future.sink { blackHole($0) })
                }
                run.markPending()
                let settling = Handoff(promises)
                promises = []
                Shared.settler.sync {
                    for (index, promise) in settling.value.enumerated() { promise(.success(index)) }
                }
                blackHole(cancellables)
            },
            .async(.concurrency, "a task each, suspended in `withCheckedContinuation`; resumed on the settler") {
                run in
                let store = ContinuationStore(capacity: items)
                run.markStart()
                await withDiscardingTaskGroup { group in
                    for _ in 0..<items {
                        group.addTask {
                            blackHole(await withCheckedContinuation { store.append($0) })
                        }
                    }
                    while store.count < items { await Task.yield() }
                    run.markPending()
                    let continuations = store.takeAll()
                    Shared.settler.async {
                        for (index, continuation) in continuations.enumerated() {
                            continuation.resume(returning: index)
                        }
                    }
                }
            },
            .sync(.mutexFuture, "`MutexFuture()` + `whenSuccess` here; `succeed` all on the settler") { run in
                let futures = pendingMutexFutures(run)
                let settling = futures
                Shared.settler.sync {
                    for (index, future) in settling.enumerated() { future.succeed(index) }
                }
                blackHole(futures)
            },
        ],
        targets: [
            .speedup("pending-elsewhere", over: .nio, atLeast: 1 / 0.3, "≤ 0.3x NIO's time"),
            .heapPerItem("pending-elsewhere", atMost: 120, "≤ 120 B heap per pending response"),
        ]
    )

    /// The same 100,000, created, observed and settled on one thread: NIO's best case, on its own loop.
    static let manyPendingOnOneThread = BenchmarkCase(
        id: "pending-one-thread",
        title: "100,000 pending, all on one thread (NIO on its loop)",
        iterations: 1,
        quickIterations: 1,
        itemsPerRound: items,
        contenders: [
            .sync(.response, "`makePending` + `onCompletion(on: .immediate)`, then `succeed` all, on this thread") {
                run in
                let (responses, resolvers) = pendingResponses(run)
                for (index, resolver) in resolvers.enumerated() { resolver.succeed(index) }
                blackHole(responses)
            },
            .sync(.nio, "everything inside one `loop.submit` on a `MultiThreadedEventLoopGroup` loop") { run in
                let loop = Shared.loop
                try! loop.submit {
                    let promises = pendingPromises(on: loop, run)
                    run.markPending()
                    for (index, promise) in promises.enumerated() { promise.succeed(index) }
                    blackHole(promises)
                }.wait()
            },
            .sync(.mutexFuture, "`MutexFuture()` + `whenSuccess`, then `succeed` all, on this thread") { run in
                let futures = pendingMutexFutures(run)
                for (index, future) in futures.enumerated() { future.succeed(index) }
                blackHole(futures)
            },
        ]
    )
}

/// Where the concurrency contender's tasks leave their continuations for the settler.
private final class ContinuationStore: Sendable {
    private let continuations: Mutex<[CheckedContinuation<Int, Never>]>
    private let stored = Atomic<Int>(0)

    init(capacity: Int) {
        var reserved: [CheckedContinuation<Int, Never>] = []
        reserved.reserveCapacity(capacity)
        continuations = Mutex(reserved)
    }

    func append(_ continuation: CheckedContinuation<Int, Never>) {
        continuations.withLock { $0.append(continuation) }
        stored.add(1, ordering: .releasing)
    }

    var count: Int {
        stored.load(ordering: .acquiring)
    }

    func takeAll() -> [CheckedContinuation<Int, Never>] {
        continuations.withLock { continuations in
            defer { continuations = [] }
            return continuations
        }
    }
}

/// `items` pending responses with one immediate handler each, the heap phases marked around their creation.
private func pendingResponses(_ run: Run) -> (responses: [Response<Int>], resolvers: [Resolver<Int>]) {
    var responses: [Response<Int>] = []
    var resolvers: [Resolver<Int>] = []
    responses.reserveCapacity(items)
    resolvers.reserveCapacity(items)
    run.markStart()
    for _ in 0..<items {
        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        response.onCompletion(on: .immediate) { blackHole($0) }
        responses.append(response)
        resolvers.append(resolver)
    }
    run.markPending()
    return (responses, resolvers)
}

/// `items` pending mutex futures with one handler each, the heap phases marked around their creation.
private func pendingMutexFutures(_ run: Run) -> [MutexFuture<Int>] {
    var futures: [MutexFuture<Int>] = []
    futures.reserveCapacity(items)
    run.markStart()
    for _ in 0..<items {
        let future = MutexFuture<Int>()
        future.whenSuccess { blackHole($0) }
        futures.append(future)
    }
    run.markPending()
    return futures
}

/// `items` promises of `loop` with one handler each, from `markStart` on; the caller marks the pending phase
/// (off the loop, the handlers are registered only once the loop has run the hops).
private func pendingPromises(on loop: any EventLoop, _ run: Run) -> [EventLoopPromise<Int>] {
    var promises: [EventLoopPromise<Int>] = []
    promises.reserveCapacity(items)
    run.markStart()
    for _ in 0..<items {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.whenSuccess { blackHole($0) }
        promises.append(promise)
    }
    return promises
}
