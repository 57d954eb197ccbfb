import Interactors
import NIOCore
import NIOEmbedded
import OpenCombine

extension BenchmarkCase {
    /// A pending future, ten `map` stages, a handler on the last, then settle the first.
    static let mapChain = BenchmarkCase(
        id: "map10",
        title: "10 chained maps, then observe (one thread)",
        iterations: 5_000,
        quickIterations: 500,
        contenders: [
            .sync(.response, "`makePending`, `map` ×10, `onCompletion(on: .immediate)`, `succeed`") { run in
                for index in 0..<run.iterations {
                    let (head, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                    var tail = head
                    for _ in 0..<10 { tail = tail.map { $0 + 1 } }
                    tail.onCompletion(on: .immediate) { blackHole($0) }
                    resolver.succeed(index)
                    blackHole(tail)
                }
            },
            .sync(.nio, "`makePromise` on an `EmbeddedEventLoop`, `map` ×10, `whenSuccess`, `succeed`") { run in
                let loop = EmbeddedEventLoop()
                for index in 0..<run.iterations {
                    let promise = loop.makePromise(of: Int.self)
                    var tail = promise.futureResult
                    for _ in 0..<10 { tail = tail.map { $0 + 1 } }
                    tail.whenSuccess { blackHole($0) }
                    promise.succeed(index)
                    blackHole(tail)
                }
            },
            .sync(.openCombine, "`Future` keeping its promise, `.map` ×10 (type-erased), `sink`, the promise") { run in
                let slot = Slot<Future<Int, Never>.Promise>()
                for index in 0..<run.iterations {
                    let future = Future<Int, Never> { slot.value = $0 }
                    var tail = future.eraseToAnyPublisher()
                    for _ in 0..<10 { tail = tail.map { $0 + 1 }.eraseToAnyPublisher() }
                    let cancellable = tail.sink { blackHole($0) }
                    slot.value!(.success(index))
                    blackHole(cancellable)
                }
            },
            .sync(.mutexFuture, "`MutexFuture()`, `map` ×10 (a new future per stage), `whenSuccess`, `succeed`") {
                run in
                for index in 0..<run.iterations {
                    let head = MutexFuture<Int>()
                    var tail = head
                    for _ in 0..<10 { tail = tail.map { $0 + 1 } }
                    tail.whenSuccess { blackHole($0) }
                    head.succeed(index)
                    blackHole(tail)
                }
            },
        ],
        targets: [
            .timeRatio("map10", to: .nio, atMost: 0.85, "≤ 0.85x NIO"),
            .allocations("map10", atMost: 22, "≤ 2 allocs per stage (22 with the first response and its resolver)"),
        ]
    )
}
