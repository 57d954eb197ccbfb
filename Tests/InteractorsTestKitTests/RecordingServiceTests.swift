import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct RecordingServiceTests {
    @Test func aRecordingServiceRecordsWhatItHearsInOrder() {
        let recorder = RecordingService()
        let driver = LifecycleDriver(services: [recorder])
        driver.launch(options: ["k": 1])
        driver.memoryWarning()
        #expect(recorder.events == [.didFinishLaunching(["k": 1]), .didBecomeActive, .didReceiveMemoryWarning])
    }

    @Test func aRecordingServiceThrowsOnTheEventsItWasToldToFailOn() {
        let recorder = RecordingService(name: "flaky")
        recorder.fail(on: .didBecomeActive)
        let failures = LifecycleDriver(services: [recorder]).launch()
        #expect(
            failures.map { $0.error as? RecordingService.Failure } == [.init(service: "flaky", event: .didBecomeActive)]
        )
        #expect(recorder.events.count == 2)
    }

    @Test func aRecordingServiceClaimsURLsWithItsPrefixesAndRecordsEveryOffer() throws {
        let recorder = RecordingService()
        recorder.claimURLs(withPrefix: "app://")
        #expect(recorder.open(URLOpenRequest(url: "app://a")))
        #expect(!recorder.open(URLOpenRequest(url: "https://b")))
        #expect(recorder.openedURLs.map(\.url) == ["app://a", "https://b"])
    }

    @Test func aRecordingServiceRunsItsActionInsideTheHook() {
        let recorder = RecordingService()
        let seen = EventLog()
        recorder.onReceive { seen.record(service: "action", event: $0) }
        LifecycleDriver(services: [recorder]).launch()
        #expect(seen.entries.map(\.event) == recorder.events)
    }
}
