import Dispatch
import Interactors
import InteractorsPresentation
import Observation
import TestThreads
import Testing

// An update made while another is being applied on the same thread is deferred, not trapped (issue 17 changed
// this: it used to stop the program).

@Suite(.onThreadsOfTheirOwn) struct StoreNestedUpdateTests {
    @Test func anUpdateFromInsideAChangeIsAppliedRightAfterItBeforeTheOuterUpdateReturns() {
        let store = Store([String](), queue: .immediate)
        let heard = Recorder<[String]>()
        let observation = store.observe { heard.record($0) }
        store.update { state in
            state.append("outer")
            store.update { $0.append("inner") }
        }
        #expect(store.state == ["outer", "inner"])
        #expect(heard.elements == [[], ["outer"], ["outer", "inner"]])
        observation.cancel()
    }

    @Test func aNestedUpdateReturnsBeforeItsChangeIsStored() {
        let store = Store(0, queue: .immediate)
        let seenAfterNestedCall = Recorder<Int>()
        store.update { state in
            store.update { $0 += 10 }
            seenAfterNestedCall.record(store.state)
            state += 1
        }
        #expect(seenAfterNestedCall.elements == [0])
        #expect(store.state == 11)
    }

    @Test func nestedUpdatesAreAppliedInCallOrderIncludingThoseTheyMakeThemselves() {
        let store = Store([String](), queue: .immediate)
        let heard = Recorder<[String]>()
        let observation = store.observe { heard.record($0) }
        store.update { state in
            store.update { state in
                state.append("first")
                store.update { $0.append("third") }
            }
            store.update { $0.append("second") }
            state.append("outer")
        }
        #expect(store.state == ["outer", "first", "second", "third"])
        #expect(heard.elements.map(\.count) == [0, 1, 2, 3, 4])
        observation.cancel()
    }

    @Test func anUpdateFromAnObservationOnChangeIsDeferred() {
        let store = Store(0, queue: .immediate)
        let fired = Recorder<Int>()
        _ = withObservationTracking {
            store.state
        } onChange: {
            fired.record(1)
            store.update { $0 += 100 }  // onChange runs inside the update that fires it
        }
        store.update { $0 = 1 }
        #expect(fired.elements == [1])
        #expect(store.state == 101)
    }

    @Test func anUpdateFromAnImmediateObserverIsAppliedAtOnce() {
        let store = Store(0, queue: .immediate)
        let seenAfterUpdate = Recorder<Int>()
        let observation = store.observe { state in
            guard state == 1 else { return }
            store.update { $0 = 2 }
            seenAfterUpdate.record(store.state)  // the observer runs after the change is stored: no deferral
        }
        store.update { $0 = 1 }
        #expect(seenAfterUpdate.elements == [2])
        observation.cancel()
    }

    @Test func aNestedUpdateFromAChangeThatThrowsIsStillApplied() {
        let store = Store(0, queue: .immediate)
        #expect(throws: TestError.self) {
            try store.update { state throws(TestError) in
                store.update { $0 = 5 }
                state = 99
                throw TestError()
            }
        }
        #expect(store.state == 5)
    }

    @Test func aChangeThatBlocksOnWorkOwedToItsOwnQueueDefersThatWorksUpdate() throws {
        // The blocked `get()` runs the work queued to the serial queue it is on, in its place, on this thread:
        // the work's update is a nested one, so it is deferred instead of waiting for the turn this thread holds.
        let serial = DispatchQueue(label: "serial")
        let store = Store(0, queue: .immediate)
        try serial.sync {
            try store.update { state in
                let work = Response(on: serial) {
                    store.update { $0 += 10 }
                    return 1
                }
                state += try work.get()
            }
        }
        #expect(store.state == 11)
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func aDeferredChangeThatThrowsLeavesTheStateAndWritesItsErrorToStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            struct Refused: Error {}
            let store = Store(0, queue: .immediate)
            store.update { state in
                try? store.update { _ throws(Refused) in throw Refused() }  // returns at once: nothing to catch
                store.update { $0 += 10 }
                state = 1
            }
            precondition(store.state == 11, "the failed deferred change changed the state, or the next was lost")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("threw after its caller had returned"))
        #expect(message.contains("Refused"))
    }
    #endif
}
