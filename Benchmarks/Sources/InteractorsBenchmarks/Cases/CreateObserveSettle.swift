import Interactors
import NIOCore
import NIOEmbedded
import OpenCombine

extension BenchmarkCase {
    /// Create a pending future, add one handler, settle it, all on one thread.
    static let createObserveSettle = BenchmarkCase(
        id: "create",
        title: "create, add one handler, then settle (one thread)",
        iterations: 20_000,
        quickIterations: 1_000,
        contenders: [
            .sync(.response, "`makePending(callbackQueue: .immediate)`, `onCompletion(on: .immediate)`, `succeed`") {
                run in
                for index in 0..<run.iterations {
                    let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                    response.onCompletion(on: .immediate) { blackHole($0) }
                    resolver.succeed(index)
                    blackHole(response)
                    blackHole(resolver)
                }
            },
            .sync(.nio, "`makePromise` on an `EmbeddedEventLoop` (we are on its thread), `whenSuccess`, `succeed`") {
                run in
                let loop = EmbeddedEventLoop()
                for index in 0..<run.iterations {
                    let promise = loop.makePromise(of: Int.self)
                    promise.futureResult.whenSuccess { blackHole($0) }
                    promise.succeed(index)
                    blackHole(promise)
                }
            },
            .sync(.openCombine, "`Future` keeping its promise, `sink`, then the promise") { run in
                let slot = Slot<Future<Int, Never>.Promise>()
                for index in 0..<run.iterations {
                    let future = Future<Int, Never> { slot.value = $0 }
                    let cancellable = future.sink { blackHole($0) }
                    slot.value!(.success(index))
                    blackHole(cancellable)
                    blackHole(future)
                }
            },
            .async(.concurrency, "`Task { value }`, then `await task.value`") { run in
                for index in 0..<run.iterations {
                    let task = Task { index }
                    blackHole(await task.value)
                }
            },
            .sync(.mutexFuture, "`MutexFuture()`, `whenSuccess`, `succeed`") { run in
                for index in 0..<run.iterations {
                    let future = MutexFuture<Int>()
                    future.whenSuccess { blackHole($0) }
                    future.succeed(index)
                    blackHole(future)
                }
            },
        ],
        targets: [
            .timeRatio("create", to: .nio, atMost: 0.8, "≤ 0.8x NIO"),
            .timeRatio("create", to: .mutexFuture, atMost: 1.2, "≤ 1.2x the mutex future floor"),
            .allocations("create", atMost: 2, "≤ 2 allocs"),
            .speedup("create", over: .openCombine, atLeast: 5, "≥ 5x faster than OpenCombine"),
            .speedup("create", over: .concurrency, atLeast: 5, "≥ 5x faster than a Task"),
        ]
    )
}
