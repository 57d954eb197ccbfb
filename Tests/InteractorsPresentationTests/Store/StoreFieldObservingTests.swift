import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

private struct Screen: Sendable, Equatable {
    var title = "Books"
    var count = 0
}

@Suite(.onThreadsOfTheirOwn) struct StoreFieldObservingTests {
    @Test func aFieldObserverHearsTheValueNowThenOnlyWhenItChanges() {
        let store = Store(Screen(), queue: .immediate)
        let titles = Recorder<String>()
        let observation = store.observe(\.title) { titles.record($0) }
        store.update { $0.count = 1 }
        store.update { $0.title = "Shelf" }
        store.update { $0.count = 2 }
        store.update { $0.title = "Shelf" }
        store.update { $0.title = "Books" }
        #expect(titles.elements == ["Books", "Shelf", "Books"])
        observation.cancel()
    }

    @Test func aChangeThatLeavesTheFieldAloneSchedulesNothingOnItsQueue() {
        let queue = ManualCallbackQueue()
        let store = Store(Screen(), queue: .immediate)
        let counts = Recorder<Int>()
        let observation = store.observe(\.count, on: queue) { counts.record($0) }
        queue.runAll()
        let hops = queue.scheduledJobs
        store.update { $0.title = "Shelf" }
        #expect(queue.scheduledJobs == hops)
        store.update { $0.count = 3 }
        queue.runAll()
        #expect(counts.elements == [0, 3])
        observation.cancel()
    }

    @Test func aFieldObserverRunsOnTheStoresQueueByDefault() {
        let queue = DispatchQueue(label: "store")
        let store = Store(Screen(), queue: queue)
        let onQueue = Recorder<Bool>()
        let done = Gate()
        let observation = store.observe(\.count) { count in
            onQueue.record(queue.isCurrent)
            if count == 1 { done.open() }
        }
        store.update { $0.count = 1 }
        #expect(done.wait())
        #expect(onQueue.elements == [true, true])
        observation.cancel()
    }

    @Test func aMainActorFieldObserverRunsOnTheMainActor() async {
        let store = Store(Screen(), queue: .immediate)
        let heard = Recorder<Int>()
        var observation: StoreObservation?
        await withCheckedContinuation { continuation in
            observation = store.observe(\.count, on: .main) { @MainActor count in
                MainActor.assertIsolated()
                heard.record(count)
                if count == 1 { continuation.resume() }
            }
            store.update { $0.title = "Shelf" }
            store.update { $0.count = 1 }
        }
        #expect(heard.elements == [0, 1])
        observation?.cancel()
    }

    @Test func fieldValuesFromManyThreadsAreToldOnceEachInOrder() {
        let store = Store(Screen(), queue: .immediate)
        let counts = Recorder<Int>()
        let done = Gate()
        let queue = DispatchQueue(label: "observer", attributes: .concurrent)
        let observation = store.observe(\.count, on: queue) { count in
            counts.record(count)
            if count == 600 { done.open() }
        }
        onThreads(3) { _ in
            for _ in 0..<200 {
                store.update { $0.count += 1 }
                store.update { $0.title += "." }
            }
        }
        #expect(done.wait())
        #expect(counts.elements == Array(0...600))
        observation.cancel()
    }
}
