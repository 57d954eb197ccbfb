import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import Testing

// The code blocks of Sources/Interactors/Interactors.docc/WritingAndTestingInteractors.md, in order, with the
// stand-ins they need. Inside a private namespace so the names do not clash with other articles' snippets.

@Suite private struct WritingAndTestingInteractorsSnippets {
    // MARK: Stand-ins

    struct User: Sendable { let name: String }
    struct Profile: Sendable { let name: String }
    struct Cart: Sendable { let total: Int }
    struct Receipt: Sendable { let total: Int }

    final class AuthService: Sendable {
        func logIn(_ username: String, _ password: String) throws -> User { User(name: username) }
    }

    final class ProfileAPI: Sendable {
        func profile(id: Int) async throws -> Profile { Profile(name: "user \(id)") }
    }

    struct ProfileRequest: InteractorRequest {
        typealias Output = Profile
        let userID: Int
    }

    struct LogoutRequest: InteractorRequest {
        typealias Output = Void
    }

    struct SaveDraftRequest: InteractorRequest {
        typealias Output = Bool
        let text: String
    }

    struct CheckoutRequest: InteractorRequest {
        typealias Output = Receipt
        let userID: Int
    }

    struct CartRequest: InteractorRequest {
        typealias Output = Cart
        let userID: Int
    }

    let auth = AuthService()

    func greet(_ user: User) {}

    // MARK: Write an interactor

    struct LoginRequest: InteractorRequest {
        typealias Output = User
        let username: String
        let password: String
    }

    struct LoginInteractor: Interactor {
        let auth: AuthService
        let queue: any CallbackQueue

        func execute(_ request: LoginRequest) -> Response<User> {
            Response(on: queue) { try auth.logIn(request.username, request.password) }
        }
    }

    struct LoadProfile: Interactor {
        let api: ProfileAPI

        func execute(_ request: ProfileRequest) -> Response<Profile> {
            Response { try await api.profile(id: request.userID) }
        }
    }

    // MARK: Run requests through an executor

    func runRequestsThroughAnExecutor() {
        let executor = InteractorExecutor()
        executor.register(LoginInteractor(auth: auth, queue: DispatchQueue.global()))
        executor.register(ProfileRequest.self) { LoadProfile(api: ProfileAPI()) }  // built once, on first use

        let login: Response<User> = executor.execute(LoginRequest(username: "ada", password: "secret"))
        login.onCompletion(on: .main) { user in greet(user) }

        let logout = executor.execute(LogoutRequest())
        if let error = logout.error as? UnregisteredRequestError {
            print(error.requestType)  // "MyApp.LogoutRequest"
        }

        // MARK: Choose where the work runs

        let database = DispatchQueue(label: "database")
        let saved = executor.execute(SaveDraftRequest(text: "hello"), on: database)

        _ = saved
    }

    // MARK: Compose use cases without deadlocks

    struct CheckoutInteractor: Interactor {
        let executor: InteractorExecutor
        let queue: DispatchQueue  // the same serial queue the cart interactor runs on

        func execute(_ request: CheckoutRequest) -> Response<Receipt> {
            Response(on: queue) {
                let cart = try executor.execute(CartRequest(userID: request.userID)).get()
                return Receipt(total: cart.total)
            }
        }
    }

    // MARK: Test with a spy and a probe

    @Test func checkoutTotalsTheCart() throws {
        let cart = InteractorSpy<CartRequest, Cart>()
        cart.answer(with: Cart(total: 42))
        let executor = InteractorExecutor()
        executor.register(cart)
        let checkout = CheckoutInteractor(executor: executor, queue: DispatchQueue(label: "checkout"))

        let probe = ResponseProbe(checkout.execute(CheckoutRequest(userID: 7)))
        #expect(try probe.waitForValue(timeout: .seconds(5)).total == 42)
        #expect(probe.deliveries == 1)
        #expect(cart.requests.map(\.userID) == [7])
    }

    @Test func loginWaitsForTheServer() throws {
        let login = InteractorSpy<LoginRequest, User>()
        let executor = InteractorExecutor()
        executor.register(login)

        let probe = ResponseProbe(executor.execute(LoginRequest(username: "ada", password: "secret")))
        #expect(login.pendingCount == 1)  // no answer queued: the call waits for the test
        #expect(!probe.isDone)
        login.settleNext(with: .success(User(name: "ada")))
        #expect(probe.value?.name == "ada")
    }

    // MARK: Wait without holding a thread

    @Test func theProfileComesFromTheAPI() async throws {
        let executor = InteractorExecutor()
        executor.register(LoadProfile(api: ProfileAPI()))

        let probe = ResponseProbe(executor.execute(ProfileRequest(userID: 7)))
        #expect(try await probe.value(timeout: .seconds(60)).name == "user 7")
    }

    // MARK: Wait for a call made on another thread

    @Test func checkoutAsksForTheCartOnItsQueue() async throws {
        let cart = InteractorSpy<CartRequest, Cart>()
        let executor = InteractorExecutor()
        executor.register(cart)
        let checkout = CheckoutInteractor(executor: executor, queue: DispatchQueue(label: "checkout"))

        let receipt = ResponseProbe(checkout.execute(CheckoutRequest(userID: 7)))
        let requests = try await cart.requests(count: 1, timeout: .seconds(5))  // made on the checkout queue
        #expect(requests.map(\.userID) == [7])
        cart.settleNext(with: Cart(total: 42))
        #expect(try await receipt.value(timeout: .seconds(5)).total == 42)
    }

    // MARK: Record a screen's states

    enum LoginScreen: Sendable, Equatable {
        case idle
        case loading
        case signedIn(String)
        case failed
    }

    enum LoginAction: Sendable {
        case loading
        case login(Result<User, any Error>)
    }

    struct LoginTranslator: Translator {
        func translate(_ action: LoginAction, state: inout LoginScreen) {
            switch action {
            case .loading: state = .loading
            case .login(.success(let user)): state = .signedIn(user.name)
            case .login(.failure): state = .failed
            }
        }
    }

    @Test func theLoginScreenShowsLoadingThenTheUser() async throws {
        let login = InteractorSpy<LoginRequest, User>()
        let presenter = Presenter(store: Store(LoginScreen.idle), translator: LoginTranslator())
        let screen = StoreRecorder(presenter.store)

        login.execute(LoginRequest(username: "ada", password: "secret"))
            .dispatch(to: presenter.asDispatcher(), loading: .loading) { .login($0) }
        login.settleNext(with: User(name: "ada"))

        #expect(try await screen.states(count: 3, timeout: .seconds(5)) == [.idle, .loading, .signedIn("ada")])
    }

    // MARK: Control time with a test clock

    @Test func theProfileGivesUpAfterThirtySeconds() async throws {
        let clock = TestClock()
        let profiles = InteractorSpy<ProfileRequest, Profile>()  // leaves the call pending
        let probe = ResponseProbe(
            profiles.execute(ProfileRequest(userID: 7)).timeout(after: .seconds(30), clock: clock)
        )

        await clock.advance(by: .seconds(29))
        #expect(!probe.isDone)
        await clock.advance(by: .seconds(1))
        #expect(try await probe.error(timeout: .seconds(60)) as? ResponseError == .timedOut)
    }

    struct Feed: Sendable { let posts: Int }
    enum FeedError: Error { case unavailable }

    struct FeedRequest: InteractorRequest {
        typealias Output = Feed
    }

    struct RefreshFeed {
        let executor: InteractorExecutor
        var clock: (any Clock<Duration>)? = nil  // the library's timers in the app, a TestClock in tests

        func callAsFunction() -> Response<Feed> {
            Response.retry(times: 4, delay: .seconds(1), backoff: 2, clock: clock) { executor.execute(FeedRequest()) }
        }
    }

    @Test func theFeedIsTriedAgainAfterOneTwoFourAndEightSeconds() async throws {
        let feed = InteractorSpy<FeedRequest, Feed>()
        let executor = InteractorExecutor()
        executor.register(feed)
        let clock = TestClock()
        let refreshed = ResponseProbe(RefreshFeed(executor: executor, clock: clock)())

        for (retry, wait) in [1, 2, 4, 8].enumerated() {
            _ = try await feed.requests(count: retry + 1, timeout: .seconds(60))
            feed.settleNext(withError: FeedError.unavailable)
            let next = try await clock.deadlines(count: retry + 1, timeout: .seconds(60))[retry]  // the wait began
            #expect(clock.now.duration(to: next) == .seconds(wait))
            await clock.advance(to: next)
        }
        _ = try await feed.requests(count: 5, timeout: .seconds(60))
        feed.settleNext(with: Feed(posts: 3))
        #expect(try await refreshed.value(timeout: .seconds(60)).posts == 3)
        #expect(clock.now.offset == .seconds(15))
    }
}
