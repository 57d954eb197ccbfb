import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct StoreObservingTests {
    @Test func observerHearsTheCurrentStateFirstOnTheStoresQueue() {
        let queue = ManualCallbackQueue()
        let store = Store(5, queue: queue)
        let heard = Recorder<Int>()
        let observation = store.observe { heard.record($0) }
        #expect(heard.elements.isEmpty)
        queue.runAll()
        #expect(heard.elements == [5])
        observation.cancel()
    }

    @Test func immediateObserverHearsTheCurrentStateBeforeObserveReturns() {
        let store = Store(5, queue: .immediate)
        let heard = Recorder<Int>()
        let observation = store.observe { heard.record($0) }
        #expect(heard.elements == [5])
        store.update { $0 = 6 }
        #expect(heard.elements == [5, 6])
        observation.cancel()
    }

    @Test func observerHearsEveryChangeOnceAndInOrderOnTheStoresQueue() {
        let queue = DispatchQueue(label: "store")
        let store = Store(0, queue: queue)
        let heard = Recorder<Int>()
        let offQueue = Recorder<Int>()
        let done = Gate()
        let observation = store.observe { state in
            if !queue.isCurrent { offQueue.record(state) }
            heard.record(state)
            if state == 1_000 { done.open() }
        }
        for _ in 0..<1_000 { store.update { $0 += 1 } }
        #expect(done.wait())
        #expect(heard.elements == Array(0...1_000))
        #expect(offQueue.elements.isEmpty)
        observation.cancel()
    }

    @Test func orderHoldsOnAQueueThatPromisesNone() {
        // A concurrent queue may run two jobs at once and in any order; the store keeps order itself.
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let store = Store([Int](), queue: queue)
        let heard = Recorder<[Int]>()
        let overlap = Overlap()
        let done = Gate()
        let observation = store.observe { state in
            overlap.enter()
            heard.record(state)
            overlap.leave()
            if state.count == 900 { done.open() }
        }
        onThreads(3) { sender in
            for index in 0..<300 { store.update { $0.append(sender * 1_000 + index) } }
        }
        #expect(done.wait())
        let states = heard.elements
        #expect(states.map(\.count) == Array(0...900))  // every change once, in order
        #expect(states.last == store.state)
        #expect(overlap.most == 1)  // never two at once
        observation.cancel()
    }

    @Test func observerOnAnotherQueueRunsThere() {
        let store = Store(0, queue: .immediate)
        let other = DispatchQueue(label: "other")
        let onOther = Recorder<Bool>()
        let done = Gate()
        let observation = store.observe(on: other) { state in
            onOther.record(other.isCurrent)
            if state == 1 { done.open() }
        }
        store.update { $0 = 1 }
        #expect(done.wait())
        #expect(onOther.elements == [true, true])
        observation.cancel()
    }

    @Test func mainActorObserverRunsOnTheMainActor() async {
        let store = Store(0, queue: .immediate)
        let heard = Recorder<Int>()
        var observation: StoreObservation?
        await withCheckedContinuation { continuation in
            observation = store.observe(on: .main) { @MainActor state in
                MainActor.assertIsolated()
                heard.record(state)
                if state == 1 { continuation.resume() }
            }
            store.update { $0 = 1 }
        }
        #expect(heard.elements == [0, 1])
        observation?.cancel()
    }

    @Test func observerMayUpdateTheStoreFromItsDelivery() {
        let store = Store(0, queue: .immediate)
        let heard = Recorder<Int>()
        let observation = store.observe { state in
            heard.record(state)
            if state == 1 { store.update { $0 = 2 } }
        }
        store.update { $0 = 1 }
        #expect(heard.elements == [0, 1, 2])
        #expect(store.state == 2)
        observation.cancel()
    }
}
