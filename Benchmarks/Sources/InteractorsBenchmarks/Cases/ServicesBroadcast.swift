import Interactors

extension BenchmarkCase {
    /// One lifecycle event sent to a registry of 100 services (ours alone: no peer has a service registry).
    static let servicesBroadcast = BenchmarkCase(
        id: "broadcast100",
        title: "services broadcast: one event to 100 services",
        iterations: 20_000,
        quickIterations: 1_000,
        contenders: [
            .sync(.response, "`ServiceRegistry` of 100 services, `send(.didReceiveMemoryWarning)`") { run in
                let registry = ServiceRegistry()
                for _ in 0..<100 { registry.register(CountingService()) }
                registry.send(.didFinishLaunching([:]))
                run.startClock()
                for _ in 0..<run.iterations {
                    blackHole(registry.send(.didReceiveMemoryWarning))
                }
                blackHole(registry)
            }
        ],
        targets: [
            .timePerItem("broadcast100", items: 100, atMost: 100, "< 100 ns per service per event")
        ]
    )
}

/// A service whose memory-warning hook does a little work the optimizer cannot remove.
private final class CountingService: Service, @unchecked Sendable {
    // @unchecked: `count` is only touched by the registry's delivering thread, one event at a time.
    private var count = 0

    func didReceiveMemoryWarning() throws {
        count &+= 1
        blackHole(count)
    }
}
