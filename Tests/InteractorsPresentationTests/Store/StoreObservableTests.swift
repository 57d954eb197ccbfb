import Interactors
import InteractorsPresentation
import Observation
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct StoreObservableTests {
    @Test func readingStateInsideObservationTrackingIsTrackedAndAnUpdateFiresOnChange() {
        let store = Store(0, queue: .immediate)
        let changes = Recorder<Int>()
        let read = withObservationTracking {
            store.state
        } onChange: {
            changes.record(1)
        }
        #expect(read == 0)
        #expect(changes.elements.isEmpty)
        store.update { $0 = 1 }
        #expect(changes.elements == [1])
        store.update { $0 = 2 }  // onChange fires once per tracking, as for any Observable
        #expect(changes.elements == [1])
    }

    @Test func untrackedReadsFireNothing() {
        let store = Store(0, queue: .immediate)
        let other = Store(0, queue: .immediate)
        let changes = Recorder<Int>()
        _ = withObservationTracking {
            other.state
        } onChange: {
            changes.record(1)
        }
        store.update { $0 = 1 }
        #expect(changes.elements.isEmpty)
    }
}
