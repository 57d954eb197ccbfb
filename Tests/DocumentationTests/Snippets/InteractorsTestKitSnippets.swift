import Interactors
import InteractorsPresentation
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

    enum ProfileScreen: Sendable, Equatable {
        case idle
        case loading
        case showing(String)
        case failed
    }

    enum ProfileAction: Sendable {
        case loading
        case loaded(Result<Profile, any Error>)
    }

    struct ProfileTranslator: Translator {
        func translate(_ action: ProfileAction, state: inout ProfileScreen) {
            switch action {
            case .loading: state = .loading
            case .loaded(.success(let profile)): state = .showing(profile.name)
            case .loaded(.failure): state = .failed
            }
        }
    }

    @Test func theProfileScreenShowsLoadingThenTheName() async throws {
        let profiles = InteractorSpy<ProfileRequest, Profile>()
        let presenter = Presenter(store: Store(ProfileScreen.idle), translator: ProfileTranslator())
        let screen = StoreRecorder(presenter.store)

        let probe = ResponseProbe(
            profiles.execute(ProfileRequest(userID: 7))
                .dispatch(to: presenter.asDispatcher(), loading: .loading) { .loaded($0) }
        )
        #expect(try await profiles.requests(count: 1, timeout: .seconds(5)).map(\.userID) == [7])
        profiles.settleNext(with: Profile(name: "Ada"))
        #expect(try await probe.value(timeout: .seconds(5)).name == "Ada")
        #expect(try await screen.states(count: 3, timeout: .seconds(5)) == [.idle, .loading, .showing("Ada")])
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
