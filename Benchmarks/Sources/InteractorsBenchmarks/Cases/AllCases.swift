extension BenchmarkCase {
    /// Every case, in table order. A new case is one file in `Cases/` and one line here.
    static let all: [BenchmarkCase] =
        [
            .createObserveSettle,
            .settleThenObserve,
            .crossThreadGet,
            .crossThreadGetLoaded,
            .manyPendingSettledElsewhere,
            .manyPendingOnOneThread,
            .rawAsyncFloor,
            .dispatchDeliveryOneHandler,
            .dispatchDeliveryTenHandlers,
            .mapChain,
            .allOfHundred,
            .servicesBroadcast,
            .contended,
            .storeUpdateNoObserver,
            .storeUpdateOneObserver,
            .storeUpdateTenObservers,
            .storeRead,
            .presenterImmediate,
            .presenterSerialQueue,
        ] + BenchmarkCase.scale + BenchmarkCase.libraryThreads + BenchmarkCase.stores
        + BenchmarkCase.storeListedWrites + BenchmarkCase.storeSharedReads + BenchmarkCase.sqliteThreadsAndObservers
        + BenchmarkCase.herd + BenchmarkCase.pendingWrites
}
