import Interactors
import NIOCore
import NIOEmbedded
import OpenCombine

extension BenchmarkCase {
    /// A future that is settled before its one handler is added.
    static let settleThenObserve = BenchmarkCase(
        id: "settled",
        title: "settle, then add the handler (one thread)",
        iterations: 20_000,
        quickIterations: 1_000,
        contenders: [
            .sync(.response, "`Response(value:callbackQueue: .immediate)`, `onCompletion(on: .immediate)`") { run in
                for index in 0..<run.iterations {
                    let response = Response(value: index, callbackQueue: .immediate)
                    response.onCompletion(on: .immediate) { blackHole($0) }
                    blackHole(response)
                }
            },
            .sync(.nio, "`makeSucceededFuture` on an `EmbeddedEventLoop`, `whenSuccess`") { run in
                let loop = EmbeddedEventLoop()
                for index in 0..<run.iterations {
                    let future = loop.makeSucceededFuture(index)
                    future.whenSuccess { blackHole($0) }
                    blackHole(future)
                }
            },
            .sync(.openCombine, "`Future` fulfilled in its closure, `sink`") { run in
                for index in 0..<run.iterations {
                    let future = Future<Int, Never> { $0(.success(index)) }
                    let cancellable = future.sink { blackHole($0) }
                    blackHole(cancellable)
                    blackHole(future)
                }
            },
            .async(.concurrency, "`await withCheckedContinuation`, resumed at once") { run in
                for index in 0..<run.iterations {
                    let value = await withCheckedContinuation { $0.resume(returning: index) }
                    blackHole(value)
                }
            },
            .sync(.mutexFuture, "`MutexFuture(value:)`, `whenSuccess`") { run in
                for index in 0..<run.iterations {
                    let future = MutexFuture(value: index)
                    future.whenSuccess { blackHole($0) }
                    blackHole(future)
                }
            },
        ],
        targets: [
            .timeRatio("settled", to: .nio, atMost: 1.0, "≤ 1.0x NIO"),
            .allocations("settled", atMost: 1, "1 alloc"),
        ]
    )
}
