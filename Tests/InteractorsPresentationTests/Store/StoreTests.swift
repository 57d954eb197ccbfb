import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct StoreTests {
    @Test func stateIsTheInitialStateUntilChanged() {
        let store = Store(3, queue: .immediate)
        #expect(store.state == 3)
    }

    @Test func updateIsAppliedBeforeItReturns() {
        let store = Store(1, queue: ManualCallbackQueue())
        store.update { $0 += 41 }
        #expect(store.state == 42)
    }

    @Test func changeWorksOnACopyWhileReadersSeeThePreviousState() {
        let store = Store(1, queue: .immediate)
        let seenInside = Recorder<Int>()
        store.update { state in
            state = 2
            seenInside.record(store.state)
        }
        #expect(seenInside.elements == [1])
        #expect(store.state == 2)
    }

    @Test func throwingChangeLeavesTheStateAsItWasAndTellsNobody() {
        let store = Store(1, queue: .immediate)
        let heard = Recorder<Int>()
        let observation = store.observe { heard.record($0) }
        #expect(throws: TestError.self) {
            try store.update { state throws(TestError) in
                state = 99
                throw TestError()
            }
        }
        #expect(store.state == 1)
        #expect(heard.elements == [1])
        observation.cancel()
    }

    @Test func updatesFromManyThreadsAreAllApplied() {
        let store = Store(0, queue: .immediate)
        onThreads(4) { _ in
            for _ in 0..<500 { store.update { $0 += 1 } }
        }
        #expect(store.state == 2_000)
    }

    @Test func aThreadWaitsForAnUpdateRunningOnAnotherThread() {
        let store = Store([String](), queue: .immediate)
        let insideFirst = Gate()
        let releaseFirst = Gate()
        let finished = Gate()
        DispatchQueue.global().async {
            store.update { state in
                insideFirst.open()
                releaseFirst.wait()
                state.append("first")
            }
            finished.open()
        }
        #expect(insideFirst.wait())
        DispatchQueue.global().async {
            store.update { $0.append("second") }
            finished.open()
        }
        releaseFirst.open()
        #expect(finished.wait())
        #expect(finished.wait())
        #expect(store.state == ["first", "second"])
    }
}
