import Interactors
import InteractorsTestKit
import TestThreads
import Testing

private final class Analytics: Service {}
private final class Sync: Service {}

@Suite(.onThreadsOfTheirOwn) struct ServiceRegistryTests {
    @Test func servicesAreListedInRegistrationOrder() {
        let registry = ServiceRegistry()
        let first = RecordingService(), second = Analytics(), third = RecordingService()
        for service in [first, second, third] as [any Service] { registry.register(service) }
        #expect(registry.services.map(ObjectIdentifier.init) == [first, second, third].map(ObjectIdentifier.init))
    }

    @Test func aServiceIsFoundByItsType() {
        let registry = ServiceRegistry()
        let analytics = Analytics()
        registry.register(RecordingService())
        registry.register(analytics)
        registry.register(Analytics())
        #expect(registry.service(ofType: Analytics.self) === analytics)
        #expect(registry.service(ofType: Sync.self) == nil)
    }

    @Test func theSameInstanceRegisteredTwiceIsDeliveredToOnce() {
        let recorder = RecordingService()
        let driver = LifecycleDriver(services: [recorder, recorder])
        driver.launch()
        #expect(driver.registry.register(recorder).isEmpty)
        #expect(driver.registry.services.count == 1)
        #expect(recorder.events == [.didFinishLaunching([:]), .didBecomeActive])
    }

    @Test func anUnregisteredServiceHearsNothingMore() {
        let kept = RecordingService(), removed = RecordingService()
        let driver = LifecycleDriver(services: [kept, removed])
        driver.launch()
        driver.registry.unregister(removed)
        driver.terminate()
        #expect(removed.events == [.didFinishLaunching([:]), .didBecomeActive])
        #expect(kept.events.last == .willTerminate)
        #expect(driver.registry.services.count == 1)
    }

    @Test func unregisteringAServiceThatIsNotRegisteredChangesNothing() {
        let registry = ServiceRegistry()
        let kept = RecordingService()
        registry.register(kept)
        registry.unregister(RecordingService())
        #expect(registry.services.count == 1)
    }

    @Test func aHookThatThrowsDoesNotStopTheOthers() throws {
        let first = RecordingService(name: "first"), failing = RecordingService(name: "failing")
        let last = RecordingService(name: "last")
        failing.fail(on: .didBecomeActive)
        let driver = LifecycleDriver(services: [first, failing, last])
        driver.send(.didFinishLaunching([:]))
        let failures = driver.registry.send(.didBecomeActive)
        try #require(failures.count == 1)
        #expect(failures[0].service === failing)
        #expect(failures[0].event == .didBecomeActive)
        #expect(failures[0].error as? RecordingService.Failure == .init(service: "failing", event: .didBecomeActive))
        #expect(failures[0].description.hasPrefix("RecordingService failed on didBecomeActive: "))
        #expect(last.events.last == .didBecomeActive)
        #expect(driver.registry.state == .active)
    }

    @Test func everyThrowingHookIsReportedInDeliveryOrder() {
        let first = RecordingService(name: "first"), second = RecordingService(name: "second")
        first.fail(on: .willTerminate)
        second.fail(on: .willTerminate)
        let driver = LifecycleDriver(services: [first, second])
        driver.launch()
        let failures = driver.registry.shutDown()
        #expect(failures.compactMap { ($0.error as? RecordingService.Failure)?.service } == ["second", "first"])
    }

    @Test func catchUpFailuresComeBackFromRegister() {
        let registry = registry(in: .active)
        let late = RecordingService()
        late.fail(on: .didFinishLaunching([:]))
        let failures = registry.register(late)
        #expect(failures.map(\.event) == [.didFinishLaunching([:])])
        #expect(late.events == [.didFinishLaunching([:]), .didBecomeActive])
    }

    @Test func registeringAfterTerminationIsRefused() throws {
        let registry = registry(in: .terminated)
        let late = RecordingService()
        let failures = registry.register(late)
        try #require(failures.count == 1)
        #expect(failures[0].service === late)
        #expect(failures[0].event == nil)
        #expect((failures[0].error as? LifecycleError)?.code == .registeredAfterTermination)
        #expect(failures[0].description.hasPrefix("RecordingService failed on register: "))
        #expect(registry.services.isEmpty)
        #expect(late.events.isEmpty)
    }

    @Test(arguments: [
        (LifecycleState.active, [LifecycleEvent.willResignActive, .didEnterBackground, .willTerminate]),
        (.inactive, [.didEnterBackground, .willTerminate]),
        (.background, [.willTerminate]),
    ])
    func shutDownSendsTheTearDownItsStateNeeds(state: LifecycleState, tearDown: [LifecycleEvent]) {
        let recorder = RecordingService()
        let registry = registry(in: state, with: [recorder])
        let before = recorder.events.count
        #expect(registry.shutDown().isEmpty)
        #expect(Array(recorder.events.dropFirst(before)) == tearDown)
        #expect(registry.state == .terminated)
    }

    @Test(arguments: [LifecycleState.notRunning, .terminated])
    func shutDownOutsideARunningStateIsRefused(state: LifecycleState) {
        let failures = registry(in: state).shutDown()
        #expect(failures.map { ($0.error as? LifecycleError)?.code } == [.eventOutOfOrder])
    }

    @Test func thereIsOneSharedRegistry() {
        #expect(ServiceRegistry.shared === ServiceRegistry.shared)
    }
}
