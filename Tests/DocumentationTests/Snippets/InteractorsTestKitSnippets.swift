import Interactors
import InteractorsTestKit
import Testing

// The code blocks of Sources/InteractorsTestKit/InteractorsTestKit.docc/InteractorsTestKit.md, with the
// stand-ins they need. The tests among them run.

@Suite private struct InteractorsTestKitSnippets {
    struct Profile: Sendable { let name: String }

    struct ProfileRequest: InteractorRequest {
        typealias Output = Profile
        let userID: Int
    }

    @Test func profileIsLoadedForTheLoggedInUser() throws {
        let profiles = InteractorSpy<ProfileRequest, Profile>()
        profiles.answer(with: Profile(name: "Ada"))
        let executor = InteractorExecutor()
        executor.register(profiles)

        let probe = ResponseProbe(executor.execute(ProfileRequest(userID: 7)))
        #expect(try probe.waitForValue(timeout: .seconds(5)).name == "Ada")
        #expect(probe.deliveries == 1)
        #expect(profiles.lastRequest?.userID == 7)
    }

    @Test func handlersRunWhenTheQueueIsRun() {
        let queue = ManualCallbackQueue()
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response.map(callbackQueue: queue) { $0 * 2 })
        response.onCompletion(on: queue) { value in print("delivered \(value)") }
        resolver.succeed(21)
        #expect(queue.pendingJobs == 1)  // one hop for the handler, not yet run
        queue.runAll()
        #expect(probe.value == 42)
    }

    @Test func servicesStopInReverseOrder() {
        let log = EventLog()
        let driver = LifecycleDriver(services: [
            RecordingService(name: "first", log: log), RecordingService(name: "last", log: log),
        ])
        driver.launch()
        driver.terminate()
        #expect(log.services(hearing: .willTerminate) == ["last", "first"])
    }
}
