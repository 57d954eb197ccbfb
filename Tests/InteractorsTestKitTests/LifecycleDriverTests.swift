import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct LifecycleDriverTests {
    private let recorder = RecordingService()

    @Test func aDriverWalksAServiceThroughADayInTheLifeOfAnApp() {
        let driver = LifecycleDriver(services: [recorder])
        #expect(driver.launch().isEmpty)
        #expect(driver.deactivate().isEmpty)
        #expect(driver.activate().isEmpty)
        #expect(driver.background().isEmpty)
        #expect(driver.foreground().isEmpty)
        #expect(driver.memoryWarning().isEmpty)
        #expect(driver.terminate().isEmpty)
        #expect(
            recorder.events == [
                .didFinishLaunching([:]), .didBecomeActive, .willResignActive, .didBecomeActive, .willResignActive,
                .didEnterBackground, .willEnterForeground, .didBecomeActive, .didReceiveMemoryWarning,
                .willResignActive,
                .didEnterBackground, .willTerminate,
            ]
        )
    }

    @Test func aDriverLaunchesIntoTheBackgroundAndComesForward() {
        let driver = LifecycleDriver(services: [recorder])
        driver.launchInBackground(options: ["reason": "fetch"])
        #expect(driver.registry.state == .background)
        driver.foreground()
        #expect(
            recorder.events == [
                .didFinishLaunching(["reason": "fetch"]), .didEnterBackground, .willEnterForeground, .didBecomeActive,
            ]
        )
    }

    @Test func aStepThatMakesNoSenseReturnsTheRefusal() {
        let driver = LifecycleDriver(services: [recorder])
        let failures = driver.activate()
        #expect(failures.map { ($0.error as? LifecycleError)?.code } == [.eventOutOfOrder])
        #expect(recorder.events.isEmpty)
    }

    @Test func aDriverSendsToTheRegistryItWasGiven() {
        let registry = ServiceRegistry()
        registry.register(recorder)
        LifecycleDriver(registry: registry).send(.didFinishLaunching([:]), .didEnterBackground)
        #expect(registry.state == .background)
        #expect(recorder.events.count == 2)
    }
}
