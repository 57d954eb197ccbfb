@_spi(Benchmarks) import Interactors

extension BenchmarkCase {
    /// Eight threads (more than this machine's two cores) all adding handlers to the same futures and settling
    /// them, so the futures' locks are contended and lock holders get preempted. One operation is one future:
    /// eight handler registrations (one per thread) and one settlement. The futures are prepared untimed.
    static let contended = BenchmarkCase(
        id: "contended",
        title: "8 threads add handlers to and settle shared futures (2 cores)",
        iterations: 20_000,
        quickIterations: 1_000,
        table: .locks,
        contenders: [
            .sync(.response, "the library's `Response`: `onCompletion(on: .immediate)` from each thread, `succeed`") {
                run in
                var responses: [Response<Int>] = []
                var resolvers: [Resolver<Int>] = []
                responses.reserveCapacity(run.iterations)
                resolvers.reserveCapacity(run.iterations)
                for _ in 0..<run.iterations {
                    let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                    responses.append(response)
                    resolvers.append(resolver)
                }
                let shared = Handoff((responses, resolvers))
                run.startClock()
                let threads = ContendingThreads.shared
                threads.run { thread in
                    let (responses, resolvers) = shared.value
                    for index in responses.indices {
                        responses[index].onCompletion(on: .immediate) { blackHole($0) }
                        if index % threads.count == thread { resolvers[index].succeed(index) }
                    }
                }
            },
            .sync(.mutexFuture, "`MutexFuture` (`Synchronization.Mutex`: a futex on Linux)") { run in
                contend(run, Array((0..<run.iterations).map { _ in MutexFuture<Int>() }))
            },
            .sync(.lockModel, "a minimal future on the library's `Lock` (a futex lock on Linux)") { run in
                contend(run, (0..<run.iterations).map { _ in LockedFuture<BenchmarkedLock, Int>() })
            },
            .sync(.oldLockModel, "the same future on the lock before issue 8 (spin, then `sched_yield`)") { run in
                contend(run, (0..<run.iterations).map { _ in LockedFuture<SpinYieldLock, Int>() })
            },
            .sync(.pthreadMutexModel, "the same future on a `pthread_mutex_t` (its own allocation)") { run in
                contend(run, (0..<run.iterations).map { _ in LockedFuture<PthreadMutexLock, Int>() })
            },
        ],
        targets: [
            .ratio("contended", .lockModel, to: .oldLockModel, atMost: 1, "Lock no slower than the old Lock"),
            .ratio("contended", .lockModel, to: .pthreadMutexModel, atMost: 1, "Lock no slower than a pthread mutex"),
        ]
    )
}

/// A future every contended model offers.
protocol ContendedFuture: Sendable {
    func whenSuccess(_ callback: @escaping @Sendable (Int) -> Void)
    func succeed(_ value: Int)
}

extension MutexFuture: ContendedFuture where Value == Int {
    func whenSuccess(_ callback: @escaping @Sendable (Int) -> Void) { whenSuccess(on: nil, callback) }
}
extension LockedFuture: ContendedFuture where Lock: ~Copyable, Value == Int {}

/// The contended workload on prepared futures: every thread adds a handler to each future in turn, and the
/// thread whose turn it is settles it.
private func contend<Future: ContendedFuture>(_ run: Run, _ futures: [Future]) {
    let shared = Handoff(futures)
    run.startClock()
    let threads = ContendingThreads.shared
    threads.run { thread in
        let futures = shared.value
        for index in futures.indices {
            futures[index].whenSuccess { blackHole($0) }
            if index % threads.count == thread { futures[index].succeed(index) }
        }
    }
}
