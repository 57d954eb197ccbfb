import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct EventLogTests {
    @Test func aSharedLogShowsTheOrderServicesHeardEventsIn() {
        let log = EventLog()
        let first = RecordingService(name: "first", log: log), second = RecordingService(name: "second", log: log)
        let driver = LifecycleDriver(services: [first, second])
        driver.launch()
        driver.terminate()
        #expect(log.services(hearing: .didBecomeActive) == ["first", "second"])
        #expect(log.services(hearing: .willTerminate) == ["second", "first"])
        #expect(log.entries.first == EventLog.Entry(service: "first", event: .didFinishLaunching([:])))
        #expect(log.entries.last?.description == "first: willTerminate")
    }
}
