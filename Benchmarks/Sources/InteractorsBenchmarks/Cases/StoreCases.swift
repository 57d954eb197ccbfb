import Interactors
import InteractorsPresentation
import Observation
import Synchronization

// The store beside the two things a screen's state could otherwise live in: a plain `@Observable` class (what
// SwiftUI code writes by hand) and a `Synchronization.Mutex` (the cheapest thread-safe box). All three hold the
// same `Equatable` state, and each update changes it.

extension BenchmarkCase {
    /// `Store.update` with nobody observing, beside a mutation of an `@Observable` model and of a mutex's state.
    static let storeUpdateNoObserver = BenchmarkCase(
        id: "store-update-0",
        title: "`Store.update`, no observer",
        iterations: 200_000,
        quickIterations: 5_000,
        table: .presentation,
        contenders: [
            .sync(.store, "`store.update { $0.count &+= 1 }` on a `Store(queue: .immediate)`") { run in
                let store = Store(BenchmarkScreen(), queue: .immediate)
                run.startClock()
                for _ in 0..<run.iterations { store.update { $0.count &+= 1 } }
                blackHole(store)
            },
            .sync(.observableModel, "`model.state.count &+= 1` on an `@Observable` class holding the state") { run in
                let model = ObservableScreen()
                run.startClock()
                for _ in 0..<run.iterations { model.state.count &+= 1 }
                blackHole(model)
            },
            .sync(.mutexState, "`mutex.withLock { $0.count &+= 1 }` on a `Mutex<State>`") { run in
                let mutex = MutexScreen()
                run.startClock()
                for _ in 0..<run.iterations { mutex.state.withLock { $0.count &+= 1 } }
                blackHole(mutex)
            },
        ],
        targets: [
            .ratio("store-update-0", .store, to: .observableModel, atMost: 2, "≤ 2x the `@Observable` mutation")
        ]
    )

    /// `Store.update` told to one observer on `.immediate`.
    static let storeUpdateOneObserver = storeUpdate(observers: 1)

    /// `Store.update` told to ten observers on `.immediate`.
    static let storeUpdateTenObservers = storeUpdate(observers: 10)

    private static func storeUpdate(observers: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "store-update-\(observers)",
            title: "`Store.update`, \(observers) observer\(observers == 1 ? "" : "s") on `.immediate`",
            iterations: 100_000,
            quickIterations: 2_000,
            table: .presentation,
            contenders: [
                .sync(.store, "`store.update { $0.count &+= 1 }`, \(observers) × `observe(on: .immediate)`") { run in
                    let store = Store(BenchmarkScreen(), queue: .immediate)
                    let observations = (0..<observers).map { _ in
                        store.observe(on: .immediate) { blackHole($0.count) }
                    }
                    run.startClock()
                    for _ in 0..<run.iterations { store.update { $0.count &+= 1 } }
                    blackHole(observations)
                }
            ]
        )
    }

    /// Reading the state: the store's snapshot, the `@Observable` model's property, the mutex's copy.
    static let storeRead = BenchmarkCase(
        id: "store-read",
        title: "`state` read",
        iterations: 500_000,
        quickIterations: 10_000,
        table: .presentation,
        contenders: [
            .sync(.store, "`store.state`") { run in
                let store = Store(BenchmarkScreen(), queue: .immediate)
                run.startClock()
                for _ in 0..<run.iterations { blackHole(store.state) }
            },
            .sync(.observableModel, "`model.state`") { run in
                let model = ObservableScreen()
                run.startClock()
                for _ in 0..<run.iterations { blackHole(model.state) }
            },
            .sync(.mutexState, "`mutex.withLock { $0 }`") { run in
                let mutex = MutexScreen()
                run.startClock()
                for _ in 0..<run.iterations { blackHole(mutex.state.withLock { $0 }) }
            },
        ],
        targets: [
            .ratio("store-read", .store, to: .mutexState, atMost: 2, "≤ 2x the `Mutex<State>` read")
        ]
    )
}

/// The state every contender holds: a screen's worth of fields, compared on each update.
struct BenchmarkScreen: Sendable, Equatable {
    var title = "Books"
    var count = 0
    var isLoading = false
}

/// What a SwiftUI app would write by hand.
@Observable
final class ObservableScreen: @unchecked Sendable {
    // @unchecked: used by one thread at a time in the benchmark, as a main-actor model is.
    var state = BenchmarkScreen()
}

/// The cheapest thread-safe home for the state.
final class MutexScreen: Sendable {
    let state = Mutex(BenchmarkScreen())
}
