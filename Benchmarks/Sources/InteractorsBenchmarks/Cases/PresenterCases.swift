import Dispatch
import Interactors
import InteractorsPresentation

extension BenchmarkCase {
    /// Actions through a presenter whose queue runs jobs at once: the dispatching thread translates each one.
    static let presenterImmediate = BenchmarkCase(
        id: "presenter-immediate",
        title: "`Presenter.dispatch` on `.immediate` (1,000,000 actions per sample)",
        iterations: 1_000_000,
        quickIterations: 20_000,
        table: .presentation,
        contenders: [
            .sync(.store, "`presenter.dispatch(1)`, translated into `state.count &+= 1` before it returns") { run in
                let presenter = Presenter(
                    store: Store(BenchmarkScreen(), queue: .immediate),
                    translator: CountingTranslator(),
                    queue: .immediate
                )
                run.startClock()
                for _ in 0..<run.iterations { presenter.dispatch(1) }
                blackHole(presenter)
            }
        ],
        targets: [
            .totalTime(
                "presenter-immediate",
                .store,
                operations: 1_000_000,
                atMost: 1_500_000_000,
                "1,000,000 actions in ≤ 1.5 s"
            )
        ]
    )

    /// Actions through a presenter on a serial queue, from the harness thread; the clock stops when the last one
    /// has been translated.
    static let presenterSerialQueue = BenchmarkCase(
        id: "presenter-serial",
        title: "`Presenter.dispatch` on a serial `DispatchQueue`",
        iterations: 200_000,
        quickIterations: 5_000,
        table: .presentation,
        contenders: [
            .sync(.store, "`presenter.dispatch(1)` from this thread; until the queue has translated the last") { run in
                let store = Store(BenchmarkScreen(), queue: .immediate)
                let presenter = Presenter(
                    store: store,
                    translator: CountingTranslator(),
                    queue: DispatchQueue(label: "presenter")
                )
                let done = DispatchSemaphore(value: 0)
                let expected = run.iterations
                let observation = store.observe(\.count) { count in
                    if count == expected { done.signal() }
                }
                run.startClock()
                for _ in 0..<run.iterations { presenter.dispatch(1) }
                done.wait()
                blackHole(observation)
            }
        ]
    )
}

/// Adds each action to the count.
private struct CountingTranslator: Translator {
    func translate(_ action: Int, state: inout BenchmarkScreen) {
        state.count &+= action
    }
}
