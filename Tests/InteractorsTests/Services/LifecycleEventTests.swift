import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct LifecycleEventTests {
    private let log = EventLog()

    private func recorders() -> [RecordingService] {
        ["first", "second", "third"].map { RecordingService(name: $0, log: log) }
    }

    @Test func startUpEventsReachServicesInRegistrationOrder() {
        let driver = LifecycleDriver(services: recorders())
        driver.launchInBackground()
        driver.foreground()
        for event in [LifecycleEvent.didFinishLaunching([:]), .willEnterForeground, .didBecomeActive] {
            #expect(log.services(hearing: event) == ["first", "second", "third"])
        }
    }

    @Test func tearDownEventsReachServicesInReverseOrder() {
        let driver = LifecycleDriver(services: recorders())
        driver.launch()
        driver.terminate()
        for event in [LifecycleEvent.willResignActive, .didEnterBackground, .willTerminate] {
            #expect(log.services(hearing: event) == ["third", "second", "first"])
        }
    }

    @Test func memoryWarningsReachServicesInRegistrationOrder() {
        let driver = LifecycleDriver(services: recorders())
        driver.launch()
        driver.memoryWarning()
        #expect(log.services(hearing: .didReceiveMemoryWarning) == ["first", "second", "third"])
    }

    @Test func launchEventsAreEqualWhenTheirOptionsAre() {
        #expect(LifecycleEvent.didFinishLaunching(["a": 1]) == .didFinishLaunching(["a": 1]))
        #expect(LifecycleEvent.didFinishLaunching(["a": 1]) != .didFinishLaunching(["a": 2]))
        #expect(LifecycleEvent.didFinishLaunching([:]) != .didBecomeActive)
    }

    @Test func eventsDescribeThemselvesByTheirHookNames() {
        #expect(
            LifecycleEvent.didFinishLaunching(["b": 2, "a": "x"]).description == "didFinishLaunching([a: x, b: 2])"
        )
        #expect(LifecycleEvent.willTerminate.description == "willTerminate")
    }
}
