import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct URLOpenRequestTests {
    @Test func everyServiceIsAskedEvenAfterOneClaimsTheURL() throws {
        let payments = RecordingService(name: "payments"), auth = RecordingService(name: "auth")
        let bystander = RecordingService(name: "bystander")
        payments.claimURLs(withPrefix: "app://pay")
        auth.claimURLs(withPrefix: "app://")
        let registry = registry(in: .active, with: [auth, payments, bystander])
        #expect(try registry.open("app://pay/42", options: ["source": "browser"]))
        let request = URLOpenRequest(url: "app://pay/42", options: ["source": "browser"])
        for service in [payments, auth, bystander] { #expect(service.openedURLs == [request]) }
    }

    @Test func aURLNoServiceClaimsIsUnclaimed() throws {
        let recorder = RecordingService()
        recorder.claimURLs(withPrefix: "app://")
        let registry = registry(in: .background, with: [recorder])
        #expect(try registry.open("https://example.com") == false)
        #expect(recorder.openedURLs.map(\.url) == ["https://example.com"])
    }

    @Test(arguments: [LifecycleState.notRunning, .terminated])
    func openingAURLWhileNotRunningIsRefused(state: LifecycleState) {
        let recorder = RecordingService()
        let registry = registry(in: state, with: [recorder])
        #expect(throws: LifecycleError(.urlOpenedWhileNotRunning, state: state)) {
            try registry.open("app://x")
        }
        #expect(recorder.openedURLs.isEmpty)
    }

    @Test func openingAURLFromAHookIsRefused() {
        let opener = RecordingService(), recorder = RecordingService()
        let registry = registry(in: .active, with: [opener, recorder])
        let thrown = LockedBox<(any Error)?>(nil)
        opener.onReceive { event in
            guard event == .didReceiveMemoryWarning else { return }
            do { _ = try registry.open("app://x") } catch { thrown.withLock { $0 = error } }
        }
        registry.send(.didReceiveMemoryWarning)
        #expect(thrown.withLock { $0 as? LifecycleError } == LifecycleError(.urlOpenedDuringDelivery, state: .active))
        #expect(recorder.openedURLs.isEmpty)
    }
}
