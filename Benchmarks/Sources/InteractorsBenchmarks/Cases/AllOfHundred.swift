import Interactors
import NIOCore
import NIOEmbedded
import OpenCombine

extension BenchmarkCase {
    /// 100 pending futures combined into one, then settled in order.
    static let allOfHundred = BenchmarkCase(
        id: "all100",
        title: "`all` of 100 pending, settled in order (one thread)",
        iterations: 500,
        quickIterations: 50,
        contenders: [
            .sync(.response, "100 × `makePending`, `Response.all`, `onCompletion(on: .immediate)`, 100 × `succeed`") {
                run in
                for _ in 0..<run.iterations {
                    let pending = (0..<100).map { _ in Response<Int>.makePending(callbackQueue: .immediate) }
                    let combined = Response.all(pending.map(\.response), callbackQueue: .immediate)
                    combined.onCompletion(on: .immediate) { blackHole($0) }
                    for (index, item) in pending.enumerated() { item.resolver.succeed(index) }
                    blackHole(combined)
                }
            },
            .sync(.nio, "100 × `makePromise`, `whenAllSucceed` on an `EmbeddedEventLoop`, `whenSuccess`, `succeed`") {
                run in
                let loop = EmbeddedEventLoop()
                for _ in 0..<run.iterations {
                    let promises = (0..<100).map { _ in loop.makePromise(of: Int.self) }
                    let combined = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
                    combined.whenSuccess { blackHole($0) }
                    for (index, promise) in promises.enumerated() { promise.succeed(index) }
                    blackHole(combined)
                }
            },
            .sync(.openCombine, "100 × `Future` keeping its promise, `.flatMap { $0 }.collect()`, `sink`, promises") {
                run in
                for _ in 0..<run.iterations {
                    var promises: [Future<Int, Never>.Promise] = []
                    let futures = (0..<100).map { _ in Future<Int, Never> { promises.append($0) } }
                    let cancellable = futures.publisher.flatMap { $0 }.collect().sink { blackHole($0) }
                    for (index, promise) in promises.enumerated() { promise(.success(index)) }
                    blackHole(cancellable)
                }
            },
        ]
    )
}
