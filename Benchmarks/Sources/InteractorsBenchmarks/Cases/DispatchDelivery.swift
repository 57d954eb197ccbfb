import Dispatch
import Interactors
import NIOCore
import NIOEmbedded
import OpenCombine
import OpenCombineDispatch

extension BenchmarkCase {
    /// The reference for delivery: one raw `async` per operation to the delivery queue.
    static let rawAsyncFloor = BenchmarkCase(
        id: "floor-async",
        title: "floor: one raw `DispatchQueue.async`",
        iterations: 20_000,
        quickIterations: 2_000,
        contenders: [
            .sync(.rawDispatch, "`delivery.async { use(value) }` per operation; the queue drained at the end") { run in
                for index in 0..<run.iterations {
                    Shared.delivery.async { blackHole(index) }
                }
                Shared.delivery.sync {}
            }
        ]
    )

    /// Settling a response whose one handler runs on a serial `DispatchQueue`.
    static let dispatchDeliveryOneHandler = deliveryCase(handlers: 1)

    /// Settling a response whose ten handlers run on the same serial `DispatchQueue`.
    static let dispatchDeliveryTenHandlers = deliveryCase(handlers: 10)

    /// Pending futures with their handlers are prepared untimed; the clock runs from the first settle until the
    /// delivery queue has run every handler.
    private static func deliveryCase(handlers: Int) -> BenchmarkCase {
        let noun = handlers == 1 ? "handler" : "handlers"
        return BenchmarkCase(
            id: "delivery-\(handlers)",
            title: "settle, \(handlers) \(noun) run on one DispatchQueue",
            iterations: 20_000,
            quickIterations: 2_000,
            contenders: [
                .sync(.response, "`onCompletion(on: delivery)` ×\(handlers) (untimed), then `succeed`") { run in
                    var resolvers: [Resolver<Int>] = []
                    var responses: [Response<Int>] = []
                    for _ in 0..<run.iterations {
                        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                        for _ in 0..<handlers {
                            response.onCompletion(on: Shared.delivery) { blackHole($0) }
                        }
                        responses.append(response)
                        resolvers.append(resolver)
                    }
                    run.startClock()
                    for (index, resolver) in resolvers.enumerated() { resolver.succeed(index) }
                    Shared.delivery.sync {}
                    blackHole(responses)
                },
                .sync(
                    .nio,
                    "`EmbeddedEventLoop` promise, `whenSuccess { delivery.async { … } }` ×\(handlers), `succeed`"
                ) { run in
                    let loop = EmbeddedEventLoop()
                    var promises: [EventLoopPromise<Int>] = []
                    for _ in 0..<run.iterations {
                        let promise = loop.makePromise(of: Int.self)
                        for _ in 0..<handlers {
                            promise.futureResult.whenSuccess { value in Shared.delivery.async { blackHole(value) } }
                        }
                        promises.append(promise)
                    }
                    run.startClock()
                    for (index, promise) in promises.enumerated() { promise.succeed(index) }
                    Shared.delivery.sync {}
                    blackHole(promises)
                },
                .sync(.openCombine, "`future.receive(on: delivery.ocombine).sink` ×\(handlers), then the promise") {
                    run in
                    var promises: [Future<Int, Never>.Promise] = []
                    var cancellables: [AnyCancellable] = []
                    for _ in 0..<run.iterations {
                        let future = Future<Int, Never> { promises.append($0) }
                        for _ in 0..<handlers {
                            cancellables.append(future.receive(on: Shared.delivery.ocombine).sink { blackHole($0) })
                        }
                    }
                    run.startClock()
                    for (index, promise) in promises.enumerated() { promise(.success(index)) }
                    Shared.delivery.sync {}
                    blackHole(cancellables)
                },
                .sync(.mutexFuture, "`whenSuccess(on: delivery)` ×\(handlers) (one `async` each), then `succeed`") {
                    run in
                    var futures: [MutexFuture<Int>] = []
                    for _ in 0..<run.iterations {
                        let future = MutexFuture<Int>()
                        for _ in 0..<handlers {
                            future.whenSuccess(on: Shared.delivery) { blackHole($0) }
                        }
                        futures.append(future)
                    }
                    run.startClock()
                    for (index, future) in futures.enumerated() { future.succeed(index) }
                    Shared.delivery.sync {}
                    blackHole(futures)
                },
            ],
            targets: handlers == 10
                ? [.timeRatio("delivery-10", to: .rawDispatch, in: "floor-async", atMost: 1.5, "≤ 1.5x one raw async")]
                : []
        )
    }
}
