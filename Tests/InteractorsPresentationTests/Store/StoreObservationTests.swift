import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct StoreObservationTests {
    @Test func cancelledObservationHearsNothingMoreAndFreesItsClosure() {
        let queue = ManualCallbackQueue()
        let store = Store(0, queue: queue)
        let heard = Recorder<Int>()
        var tracked: Tracked? = Tracked()
        let weak = WeakBox(tracked!)
        let observation = store.observe { [tracked] state in
            withExtendedLifetime(tracked) { heard.record(state) }
        }
        tracked = nil
        queue.runAll()
        store.update { $0 = 1 }  // queued for the observer, not yet told
        observation.cancel()
        store.update { $0 = 2 }
        queue.runAll()
        #expect(heard.elements == [0])
        #expect(weak.object == nil)
        #expect(observation.isCancelled)
    }

    @Test func releasedObservationHearsNothingMoreAndFreesItsClosure() {
        let queue = ManualCallbackQueue()
        let store = Store(0, queue: queue)
        let heard = Recorder<Int>()
        var tracked: Tracked? = Tracked()
        let weak = WeakBox(tracked!)
        var observation: StoreObservation? = store.observe { [tracked] state in
            withExtendedLifetime(tracked) { heard.record(state) }
        }
        tracked = nil
        queue.runAll()
        store.update { $0 = 1 }
        #expect(observation != nil)
        observation = nil
        store.update { $0 = 2 }
        queue.runAll()
        #expect(heard.elements == [0])
        #expect(weak.object == nil)
    }

    @Test func cancellingTwiceIsHarmless() {
        let store = Store(0, queue: .immediate)
        let observation = store.observe { _ in }
        #expect(!observation.isCancelled)
        observation.cancel()
        observation.cancel()
        #expect(observation.isCancelled)
    }

    @Test func observerMayCancelItsOwnObservation() {
        let store = Store(0, queue: .immediate)
        let heard = Recorder<Int>()
        let holder = LockedBox<StoreObservation?>(nil)
        holder.withLock {
            $0 = store.observe { state in
                heard.record(state)
                if state == 1 { holder.withLock { $0 }?.cancel() }
            }
        }
        store.update { $0 = 1 }
        store.update { $0 = 2 }
        #expect(heard.elements == [0, 1])
    }

    @Test func observationDoesNotKeepItsStoreAlive() {
        var store: Store<Int>? = Store(0, queue: .immediate)
        let weak = WeakBox(store!)
        let observation = store!.observe { _ in }
        store = nil
        #expect(weak.object == nil)
        observation.cancel()
    }

    @Test func releasedStoreTellsQueuedStatesThenFreesObserverClosures() {
        let queue = ManualCallbackQueue()
        var store: Store<Int>? = Store(0, queue: queue)
        let heard = Recorder<Int>()
        var tracked: Tracked? = Tracked()
        let weak = WeakBox(tracked!)
        let observation = store!.observe { [tracked] state in
            withExtendedLifetime(tracked) { heard.record(state) }
        }
        tracked = nil
        store!.update { $0 = 1 }
        store = nil
        #expect(weak.object != nil)  // the states queued for it are still owed
        queue.runAll()
        #expect(heard.elements == [0, 1])
        #expect(weak.object == nil)
        observation.cancel()
    }

    @Test func observationKeptInASetObservesUntilTheSetIsEmptied() {
        let store = Store(0, queue: .immediate)
        let heard = Recorder<Int>()
        var observations: Set<StoreObservation> = []
        store.observe { heard.record($0) }.store(in: &observations)
        store.observe { heard.record($0 + 100) }.store(in: &observations)
        #expect(observations.count == 2)
        store.update { $0 = 1 }
        observations.removeAll()
        store.update { $0 = 2 }
        #expect(heard.elements.sorted() == [0, 1, 100, 101])
    }
}
