import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsPresentation
import InteractorsTestKit
import Synchronization
import Testing

// The code blocks of Sources/InteractorsTestKit/InteractorsTestKit.docc (the landing page, then the article
// "Testing code that returns responses", in order), with the stand-ins they need. The tests among them run.

@Suite private final class InteractorsTestKitSnippets {
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

    // MARK: Testing code that returns responses: stand-ins

    struct EmptyCart: Error {}

    /// A use case on a serial queue: the sum of the prices, or `EmptyCart`.
    struct CartTotal {
        let queue: DispatchQueue

        func callAsFunction(_ prices: [Int]) -> Response<Int> {
            Response(on: queue) {
                guard !prices.isEmpty else { throw EmptyCart() }
                return prices.reduce(0, +)
            }
        }
    }

    struct User: Sendable { let name: String }

    enum AuthError: Error, Equatable { case wrongPassword }

    struct LoginRequest: InteractorRequest {
        typealias Output = User
        let username: String
        let password: String
    }

    struct UserRequest: InteractorRequest {
        typealias Output = User
        let userID: Int
    }

    /// Greets a user by the name another use case finds.
    struct Greeter {
        let users: InteractorSpy<UserRequest, User>

        func greet(userID: Int) -> Response<String> {
            users.execute(UserRequest(userID: userID)).map { "Hello, \($0.name)" }
        }
    }

    struct SearchRequest: InteractorRequest {
        typealias Output = [String]
        let text: String
    }

    struct UploadRequest: InteractorRequest {
        typealias Output = Receipt
    }

    struct Receipt: Sendable { let id: Int }

    enum UploadError: Error { case offline }

    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var text: String
    }

    enum ProfileError: Error { case offline }

    /// A model that shows a profile's name once its use case answers, in a handler added without a queue.
    final class ProfileModel: Sendable {
        let executor: InteractorExecutor
        private let shown = Mutex<String?>(nil)

        init(executor: InteractorExecutor) {
            self.executor = executor
        }

        var name: String? { shown.withLock { $0 } }

        func load(userID: Int) {
            executor.execute(ProfileRequest(userID: userID)).onCompletion { profile in
                self.shown.withLock { $0 = profile.name }
            }
        }
    }

    /// A folder of this test's own, removed when the test ends.
    let temporaryFolder: URL

    init() throws {
        temporaryFolder = FileManager.default.temporaryDirectory.appendingPathComponent("testkit-snippets-\(UUID())")
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporaryFolder)
    }

    // MARK: Testing code that returns responses: block for the answer

    @Test func theTotalAddsThePrices() throws {
        let total = CartTotal(queue: DispatchQueue(label: "cart"))
        #expect(try total([3, 4]).get(timeout: .seconds(5)) == 7)
        #expect(total([]).error is EmptyCart)
    }

    // MARK: Replace a use case with a spy

    @Test func theSecondAttemptWaitsForTheServer() throws {
        let login = InteractorSpy<LoginRequest, User>()
        login.answer(withError: AuthError.wrongPassword)  // for the first call only

        let first = ResponseProbe(login.execute(LoginRequest(username: "ada", password: "guess")))
        let second = ResponseProbe(login.execute(LoginRequest(username: "ada", password: "secret")))
        #expect(first.error as? AuthError == .wrongPassword)
        #expect(login.pendingCount == 1)  // nothing queued for the second: it waits for the test
        login.settleNext(with: User(name: "ada"))
        #expect(second.value?.name == "ada")
        #expect(login.requests.map(\.password) == ["guess", "secret"])
    }

    // MARK: Wait without holding a thread

    @Test func theGreetingNamesTheUser() async throws {
        let users = InteractorSpy<UserRequest, User>()
        users.alwaysAnswer(with: User(name: "ada"))
        let greeter = Greeter(users: users)

        #expect(try await greeter.greet(userID: 7).value == "Hello, ada")

        let probe = ResponseProbe(greeter.greet(userID: 8))
        #expect(try await probe.value(timeout: .seconds(60)) == "Hello, ada")
        #expect(probe.deliveries == 1)
    }

    // MARK: Test timeouts, delays and retries without waiting

    @Test func theSearchWaitsForTheUserToStopTyping() async throws {
        let clock = TestClock()
        let search = InteractorSpy<SearchRequest, [String]>()
        search.alwaysAnswer(with: ["Swift"])
        let results = ResponseProbe(
            search.execute(SearchRequest(text: "swift")).delay(by: .milliseconds(300), clock: clock)
        )

        await clock.advance(by: .milliseconds(299))
        #expect(!results.isDone)
        await clock.advance(by: .milliseconds(1))
        #expect(try await results.value(timeout: .seconds(60)) == ["Swift"])
    }

    @Test func theUploadIsTriedAgainAfterOneSecondThenTwo() async throws {
        let clock = TestClock()
        let upload = InteractorSpy<UploadRequest, Receipt>()
        upload.answer(withError: UploadError.offline)
        upload.answer(withError: UploadError.offline)
        upload.answer(with: Receipt(id: 1))
        let receipt = ResponseProbe(
            Response.retry(times: 2, delay: .seconds(1), backoff: 2, clock: clock) { upload.execute(UploadRequest()) }
        )

        let first = try await clock.deadlines(count: 1, timeout: .seconds(60))[0]
        #expect(first.offset == .seconds(1))
        await clock.advance(to: first)
        let second = try await clock.deadlines(count: 2, timeout: .seconds(60))[1]
        #expect(first.duration(to: second) == .seconds(2))
        await clock.advance(to: second)
        #expect(try await receipt.value(timeout: .seconds(60)).id == 1)
        #expect(upload.executeCount == 3)
    }

    // MARK: Assert on the library's diagnostics

    @Test func aDamagedCacheFileIsSetAsideAndReported() throws {
        let file = temporaryFolder.appendingPathComponent("notes.json")
        try Data("not a collection".utf8).write(to: file)
        let notes = FileDataSource<Note>(fileURL: file, corruptFile: .moveAside)

        let (all, diagnostics) = try withCapturedDiagnostics { try notes.getAll(AllObjectsQuery()).get() }
        #expect(all.isEmpty)
        #expect(diagnostics.contains { $0.contains("notes.json") })
    }

    // MARK: Decide when handlers run

    @Test func theModelShowsTheNameWhenItsQueueRuns() {
        let queue = ManualCallbackQueue()
        let profiles = InteractorSpy<ProfileRequest, Profile>(callbackQueue: queue)
        profiles.answer(with: Profile(name: "Ada"))
        let executor = InteractorExecutor()
        executor.register(profiles)
        let model = ProfileModel(executor: executor)

        model.load(userID: 7)
        #expect(model.name == nil)  // answered, but its handler waits for the queue
        #expect(queue.runAll() == 1)
        #expect(model.name == "Ada")
    }

    // MARK: Record a screen's states

    @Test func aFailedLoadShowsTheFailure() throws {
        let profiles = InteractorSpy<ProfileRequest, Profile>()
        let presenter = Presenter(store: Store(ProfileScreen.idle), translator: ProfileTranslator(), queue: .immediate)
        let screen = StoreRecorder(presenter.store)

        profiles.execute(ProfileRequest(userID: 7))
            .dispatch(to: presenter.asDispatcher(), loading: .loading) { .loaded($0) }
        profiles.settleNext(withError: ProfileError.offline)
        #expect(try screen.waitForStates(count: 3, timeout: .seconds(5)) == [.idle, .loading, .failed])
    }

    // MARK: Drive services through an app's lifecycle

    @Test func aServiceThatFailsDoesNotStopTheOthers() {
        let log = EventLog()
        let flaky = RecordingService(name: "flaky", log: log)
        flaky.fail(on: .didBecomeActive)
        let driver = LifecycleDriver(services: [flaky, RecordingService(name: "steady", log: log)])

        let failures = driver.launch()
        let failure = RecordingService.Failure(service: "flaky", event: .didBecomeActive)
        #expect(failures.compactMap { $0.error as? RecordingService.Failure } == [failure])
        #expect(log.services(hearing: .didBecomeActive) == ["flaky", "steady"])
    }
}
