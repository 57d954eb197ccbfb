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

    @Test func anErrorExplainsItselfWithItsStateAndEventAndWhatToDo() {
        let error = LifecycleError(.eventOutOfOrder, state: .terminated, event: .didBecomeActive)
        #expect(error.description.hasPrefix("LifecycleError: The event makes no sense in the current lifecycle state"))
        #expect(error.description.contains("send the events in the order LifecycleState allows"))
        #expect(error.description.hasSuffix("(state: terminated, event: didBecomeActive)"))
        let url = LifecycleError(.urlOpenedWhileNotRunning, state: .notRunning).description
        #expect(url.hasPrefix("LifecycleError: A URL was opened while the app was not running"))
        #expect(url.hasSuffix("(state: notRunning)"))
    }

    @Test func everyCodeHasItsOwnExplanation() {
        let codes: [LifecycleError.Code] = [
            .eventOutOfOrder, .registeredAfterTermination, .urlOpenedWhileNotRunning, .urlOpenedDuringDelivery,
        ]
        #expect(Set(codes.map(\.description)).count == codes.count)
        #expect(Set(codes).count == codes.count)
    }
}
