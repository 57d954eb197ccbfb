import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct LifecycleErrorTests {
    @Test func errorsAreEqualWhenCodeStateAndEventAre() {
        let error = LifecycleError(.eventOutOfOrder, state: .active, event: .didBecomeActive)
        #expect(error == LifecycleError(.eventOutOfOrder, state: .active, event: .didBecomeActive))
        #expect(error != LifecycleError(.eventOutOfOrder, state: .inactive, event: .didBecomeActive))
        #expect(error != LifecycleError(.registeredAfterTermination, state: .active, event: .didBecomeActive))
    }

    @Test func anErrorExplainsItselfWithItsStateAndEvent() {
        let error = LifecycleError(.eventOutOfOrder, state: .terminated, event: .didBecomeActive)
        #expect(
            error.description
                == "LifecycleError: The event makes no sense in the current lifecycle state and was not delivered."
                + " (state: terminated, event: didBecomeActive)"
        )
        #expect(
            LifecycleError(.urlOpenedWhileNotRunning, state: .notRunning).description
                == "LifecycleError: A URL was opened while the app was not running. (state: notRunning)"
        )
    }

    @Test func everyCodeHasItsOwnExplanation() {
        let codes: [LifecycleError.Code] = [
            .eventOutOfOrder, .registeredAfterTermination, .urlOpenedWhileNotRunning, .urlOpenedDuringDelivery,
        ]
        #expect(Set(codes.map(\.description)).count == codes.count)
        #expect(Set(codes).count == codes.count)
    }
}
