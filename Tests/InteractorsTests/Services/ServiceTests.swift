import Interactors
import InteractorsTestKit
import TestThreads
import Testing

/// Implements nothing: every requirement has a default.
private final class Quiet: Service {}

/// Records which named hook ran.
private final class Hooks: Service {
    let log = EventLog()

    func didFinishLaunching(options: LaunchOptions) throws {
        log.record(service: "didFinishLaunching", event: .didFinishLaunching(options))
    }
    func willEnterForeground() throws { log.record(service: "willEnterForeground", event: .willEnterForeground) }
    func didBecomeActive() throws { log.record(service: "didBecomeActive", event: .didBecomeActive) }
    func willResignActive() throws { log.record(service: "willResignActive", event: .willResignActive) }
    func didEnterBackground() throws { log.record(service: "didEnterBackground", event: .didEnterBackground) }
    func didReceiveMemoryWarning() throws {
        log.record(service: "didReceiveMemoryWarning", event: .didReceiveMemoryWarning)
    }
    func willTerminate() throws { log.record(service: "willTerminate", event: .willTerminate) }
}

@Suite(.onThreadsOfTheirOwn) struct ServiceTests {
    @Test func aServiceImplementingNothingHearsEveryEventWithoutFailing() {
        let quiet = Quiet()
        for event in allEvents { #expect(throws: Never.self) { try quiet.receive(event) } }
        #expect(quiet.open(URLOpenRequest(url: "app://x")) == false)
        let driver = LifecycleDriver(services: [quiet])
        #expect(driver.launch().isEmpty)
        #expect(driver.terminate().isEmpty)
    }

    @Test func theDefaultReceiveCallsTheHookNamedForTheEvent() throws {
        let hooks = Hooks()
        let events = allEvents.map { event in
            event == .didFinishLaunching([:]) ? .didFinishLaunching(["k": "v"]) : event
        }
        for event in events { try hooks.receive(event) }
        #expect(hooks.log.entries.map(\.event) == events)
        #expect(hooks.log.entries.map(\.service) == events.map { "\($0)".prefix { $0 != "(" }.description })
    }
}
