extension BenchmarkCase {
    /// Every case, in table order. A new case is one file in `Cases/` and one line here.
    static let all: [BenchmarkCase] = [
        .createObserveSettle,
        .settleThenObserve,
        .crossThreadGet,
        .manyPendingSettledElsewhere,
        .manyPendingOnOneThread,
        .rawAsyncFloor,
        .dispatchDeliveryOneHandler,
        .dispatchDeliveryTenHandlers,
        // TODO(composition issue): .mapChain — `response.map { }` x10, then observe; targets ≤ 0.8x NIO's time,
        //   ≤ 2 allocations per stage. NIO: `future.map` x10 on an EmbeddedEventLoop; OpenCombine: `.map` x10 on a
        //   Future; Mutex future: a `map` written in Peers/MutexFuture.swift.
        // TODO(composition issue): .allOfHundred — `Response.all` of 100 pending, settled in order. NIO:
        //   `EventLoopFuture.whenAllSucceed`; OpenCombine: `Publishers.MergeMany(...).collect()`; Concurrency:
        //   a task group of 100 awaiting continuations.
        // TODO(services issue): .servicesBroadcast — a `ServiceRegistry` of 100 services,
        //   `registry.send(.didReceiveMemoryWarning)`; target < 100 ns per service per event, so report
        //   per-event time and check `Target.timeRatio` against 100 × 100 ns (add a `Target.absolute` helper).
    ]
}
