import Dispatch
import Interactors
import NIOCore
import OpenCombine

extension BenchmarkCase {
    /// Settle on another thread while the caller blocks for the value. The floor (dispatch + semaphore, no
    /// future) is the Raw Dispatch column of the same row: measured in separate rows, its median swung between
    /// 6 and 67 µs from run to run with how the settler thread parks, so it is sampled interleaved with the rest.
    static let crossThreadGet = BenchmarkCase(
        id: "get",
        title: "settle on another thread, caller blocks for the value",
        iterations: 2_000,
        quickIterations: 100,
        contenders: crossThreadGetContenders,
        targets: [
            .timeRatio("get", to: .rawDispatch, atMost: 1.15, "≤ 1.15x the floor"),
            .speedup("get", over: .nio, atLeast: 2, "≥ 2x faster than NIO `wait()`"),
        ]
    )

    /// The same, with every core kept busy by other threads (``BusyLoad``), as on a machine running a build: the
    /// settler competes for a core, and a waiter that spins takes a core from it.
    static let crossThreadGetLoaded = BenchmarkCase(
        id: "get-loaded",
        title: "the same, every core kept busy by other threads",
        iterations: 2_000,
        quickIterations: 100,
        contenders: crossThreadGetContenders.map(\.underLoad),
        targets: [
            .timeRatio("get-loaded", to: .rawDispatch, atMost: 1.15, "≤ 1.15x the floor"),
            .timeRatio("get-loaded", to: .nio, atMost: 1, "≤ 1.0x NIO `wait()`"),
        ]
    )

    private static let crossThreadGetContenders: [Contender] = [
        .sync(
            .rawDispatch,
            "the floor: a value stored on the settler queue, a `DispatchSemaphore` signalled there, no future"
        ) { run in
            for index in 0..<run.iterations {
                let slot = Slot<Int>()
                let semaphore = DispatchSemaphore(value: 0)
                Shared.settler.async {
                    slot.value = index
                    semaphore.signal()
                }
                semaphore.wait()
                blackHole(slot.value)
            }
        },
        .sync(.response, "`makePending`, `succeed` on the settler queue, `try response.get()`") { run in
            for index in 0..<run.iterations {
                let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                Shared.settler.async { resolver.succeed(index) }
                blackHole(try! response.get())
            }
        },
        .sync(.nio, "promise of a `MultiThreadedEventLoopGroup` loop, succeeded on that loop, `wait()`") { run in
            let loop = Shared.loop
            for index in 0..<run.iterations {
                let promise = loop.makePromise(of: Int.self)
                loop.execute { promise.succeed(index) }
                blackHole(try! promise.futureResult.wait())
            }
        },
        .sync(.openCombine, "`Future`, promise called on the settler queue, `sink` signalling a semaphore") { run in
            let slot = Slot<Future<Int, Never>.Promise>()
            for index in 0..<run.iterations {
                let future = Future<Int, Never> { slot.value = $0 }
                let value = Slot<Int>()
                let semaphore = DispatchSemaphore(value: 0)
                let cancellable = future.sink {
                    value.value = $0
                    semaphore.signal()
                }
                let promise = Handoff(slot.value!)
                Shared.settler.async { promise.value(.success(index)) }
                semaphore.wait()
                blackHole(value.value)
                blackHole(cancellable)
            }
        },
        .async(.concurrency, "`await withCheckedContinuation`, resumed on the settler queue") { run in
            for index in 0..<run.iterations {
                let value = await withCheckedContinuation { continuation in
                    Shared.settler.async { continuation.resume(returning: index) }
                }
                blackHole(value)
            }
        },
        .sync(.mutexFuture, "`succeed` on the settler queue, `wait()` on a semaphore") { run in
            for index in 0..<run.iterations {
                let future = MutexFuture<Int>()
                Shared.settler.async { future.succeed(index) }
                blackHole(future.wait())
            }
        },
    ]
}
