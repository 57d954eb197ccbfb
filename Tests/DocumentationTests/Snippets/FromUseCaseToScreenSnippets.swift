import Dispatch
import Interactors
import InteractorsPresentation
import InteractorsTestKit
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

// The code blocks of Sources/InteractorsPresentation/InteractorsPresentation.docc/FromUseCaseToScreen.md, in
// order, with the stand-ins they need. Inside a private namespace so the names do not clash with other articles'
// snippets. The SwiftUI view is compiled where SwiftUI exists (Apple platforms); the tests among the blocks run.

@Suite private struct FromUseCaseToScreenSnippets {
    // MARK: Stand-ins

    struct User: Sendable { let name: String }

    /// Answers on another thread, a moment after it is asked.
    class AuthService {
        func logIn(username: String, password: String) -> Response<User> {
            Response(on: DispatchQueue.global()) { User(name: username) }
        }
    }

    /// Answers at once, with `user`: its responses have settled by the time `logIn` returns.
    final class FakeAuth: AuthService {
        let user: User

        init(user: User) {
            self.user = user
        }

        override func logIn(username: String, password: String) -> Response<User> {
            Response(value: user)
        }
    }

    final class ImageService {}

    enum AvatarAction: Sendable {
        case loading
        case loaded(size: Int)
    }

    struct AvatarInteractor {
        let images: ImageService
        let dispatcher: AnyDispatcher<AvatarAction>
    }

    let auth = AuthService()
    let images = ImageService()

    // MARK: Describe the screen and what can happen

    enum LoginScreen: Sendable, Equatable {
        case idle
        case loading
        case signedIn(name: String)
        case failed(message: String)
    }

    enum LoginAction: Sendable {
        case loading
        case login(Result<User, any Error>)
    }

    // MARK: Translate actions into state

    struct LoginTranslator: Translator {
        func translate(_ action: LoginAction, state: inout LoginScreen) {
            switch action {
            case .loading: state = .loading
            case .login(.success(let user)): state = .signedIn(name: user.name)
            case .login(.failure(let error)): state = .failed(message: "\(error)")
            }
        }
    }

    // MARK: Feed the presenter from the use case

    struct LoginInteractor {
        let auth: AuthService
        let dispatcher: AnyDispatcher<LoginAction>

        func login(username: String, password: String) -> Response<User> {
            auth.logIn(username: username, password: password)
                .dispatch(to: dispatcher, loading: .loading) { .login($0) }
        }
    }

    /// The same use case, for a screen that shows a state for a cancelled login.
    struct CancellableLoginInteractor {
        enum LoginAction: Sendable {
            case loading
            case cancelled
            case login(Result<User, any Error>)
        }

        let auth: AuthService
        let dispatcher: AnyDispatcher<LoginAction>

        func login(username: String, password: String) -> Response<User> {
            auth.logIn(username: username, password: password)
                .dispatch(to: dispatcher, loading: .loading, cancelled: .cancelled) { .login($0) }
        }
    }

    // MARK: Keep only the latest request

    struct Book: Sendable, Equatable { let title: String }

    /// Answers when the test says so: every search stays pending until `answerAll()`.
    final class BookService: Sendable {
        private let pending = LockedBox<[(String, Resolver<[Book]>)]>([])

        func search(_ text: String) -> Response<[Book]> {
            let (response, resolver) = Response<[Book]>.makePending()
            pending.withLock { $0.append((text, resolver)) }
            return response
        }

        func answerAll() {
            for (text, resolver) in pending.withLock({ $0 }) { resolver.succeed([Book(title: "\(text) in depth")]) }
        }
    }

    enum SearchAction: Sendable {
        case searching
        case results(Result<[Book], any Error>)
    }

    struct SearchInteractor {
        let books: BookService
        let dispatcher: AnyDispatcher<SearchAction>
        let latest = ResponseSlot<[Book]>()

        func search(_ text: String) -> Response<[Book]> {
            latest.replace(with: books.search(text))
                .dispatch(to: dispatcher, loading: .searching) { .results($0) }
        }
    }

    @Test func typingASearchSendsNothingForTheSearchesItReplaced() async throws {
        let sent = LockedBox<[String]>([])
        let dispatcher = AnyDispatcher<SearchAction> { action in
            switch action {
            case .searching: sent.withLock { $0.append("searching") }
            case .results(.success(let books)): sent.withLock { $0.append(books[0].title) }
            case .results(.failure(let error)): sent.withLock { $0.append("\(error)") }
            }
        }
        let books = BookService()
        let interactor = SearchInteractor(books: books, dispatcher: dispatcher)
        var last: Response<[Book]>?
        for text in ["s", "sw", "swi", "swif", "swift"] { last = interactor.search(text) }
        books.answerAll()
        _ = try await last!.value
        #expect(sent.withLock { $0 }.filter { $0 != "searching" } == ["swift in depth"])
    }

    // MARK: Put the pieces together

    func putThePiecesTogether() {
        let store = Store(LoginScreen.idle)
        let presenter = Presenter(store: store, translator: LoginTranslator())
        let interactor = LoginInteractor(auth: auth, dispatcher: presenter.asDispatcher())

        _ = interactor
    }

    func oneScreenSeveralUseCases() {
        // The screen's state and translator, for the actions of both use cases.
        struct ProfileScreen: Sendable {
            var login = LoginScreen.idle
            var avatarSize: Int?
        }

        struct ProfileTranslator: Translator {
            func translate(_ action: ProfileScreenAction, state: inout ProfileScreen) {
                switch action {
                case .login(let action): LoginTranslator().translate(action, state: &state.login)
                case .avatar(.loading): state.avatarSize = nil
                case .avatar(.loaded(let size)): state.avatarSize = size
                }
            }
        }

        let presenter = Presenter(store: Store(ProfileScreen()), translator: ProfileTranslator())

        enum ProfileScreenAction: Sendable {
            case login(LoginAction)
            case avatar(AvatarAction)
        }

        let screen = presenter.asDispatcher()
        let login = LoginInteractor(auth: auth, dispatcher: screen.map { .login($0) })
        let avatars = AvatarInteractor(images: images, dispatcher: screen.map { .avatar($0) })

        _ = (login, avatars)
    }

    // MARK: Observe the store

    @MainActor final class LoginViewController {
        let store: Store<LoginScreen>
        var observation: StoreObservation?

        init(store: Store<LoginScreen>) {
            self.store = store
        }

        func render(_ screen: LoginScreen) {}

        func observeTheStore() async {
            // UIKit, or any main-thread code: a @MainActor closure, no hop needed.
            observation = store.observe(on: .main) { [weak self] screen in self?.render(screen) }

            // Async code, or a command-line tool: none is dropped, and the loop ends when the store is released.
            for await screen in store.states {
                print(screen)
            }
        }
    }

    struct BookListScreen: Sendable, Equatable {
        var title = "Books"
        var books: [Book] = []
    }

    @MainActor final class BookListViewController {
        final class Label { var text: String? }

        let store: Store<BookListScreen>
        let titleLabel = Label()
        var titleObservation: StoreObservation?

        init(store: Store<BookListScreen>) {
            self.store = store
        }

        func observeTheTitle() {
            titleObservation = store.observe(\.title, on: .main) { [weak self] title in self?.titleLabel.text = title }
        }

        func animate(to screen: BookListScreen) async {}

        func followTheLatestState() async {
            for await screen in store.states(bufferingNewest: 1) {
                await animate(to: screen)  // always the latest state, never a backlog
            }
        }
    }

    #if canImport(SwiftUI)
    struct LoginForm: View {
        var body: some View { Text("Log in") }
    }

    struct LoginView: View {
        let presenter: Presenter<LoginTranslator>

        var body: some View {
            switch presenter.store.state {
            case .idle, .failed: LoginForm()
            case .loading: ProgressView()
            case .signedIn(let name): Text("Welcome, \(name)")
            }
        }
    }
    #endif

    // MARK: Test it

    @Test func theTranslatorIsAFunction() {
        var screen = LoginScreen.idle
        LoginTranslator().translate(.loading, state: &screen)
        #expect(screen == .loading)
    }

    @Test func theWholeFlowRunsOnTheCallingThread() {
        let presenter = Presenter(
            store: Store(LoginScreen.idle, queue: .immediate),
            translator: LoginTranslator(),
            queue: .immediate
        )
        let interactor = LoginInteractor(auth: FakeAuth(user: User(name: "ada")), dispatcher: presenter.asDispatcher())
        _ = interactor.login(username: "ada", password: "secret")
        #expect(presenter.store.state == .signedIn(name: "ada"))
    }

    @Test(.timeLimit(.minutes(1))) func theScreenFollowsAServiceThatAnswersLater() async throws {
        let presenter = Presenter(
            store: Store(LoginScreen.idle, queue: .immediate),
            translator: LoginTranslator(),
            queue: .immediate
        )
        let interactor = LoginInteractor(auth: auth, dispatcher: presenter.asDispatcher())

        let screen = StoreRecorder(presenter.store)
        let response = interactor.login(username: "ada", password: "secret")
        #expect(try await screen.states(count: 3, timeout: .seconds(5)) == [.idle, .loading, .signedIn(name: "ada")])

        #expect(response.isSuccessful)
    }
}

// The code block of Sources/InteractorsPresentation/InteractorsPresentation.docc/InteractorsPresentation.md, with
// the stand-ins it needs; compiled, not run (its observer runs on the main queue).

private struct InteractorsPresentationOverviewSnippets {
    struct User: Sendable { let name: String }
    struct Credentials: Sendable { let username: String }

    enum LoginScreen: Sendable, Equatable {
        case idle
        case loading
        case signedIn(name: String)
        case failed(message: String)
    }

    enum LoginAction: Sendable {
        case loading
        case login(Result<User, any Error>)
    }

    struct LoginTranslator: Translator {
        func translate(_ action: LoginAction, state: inout LoginScreen) {
            switch action {
            case .loading: state = .loading
            case .login(.success(let user)): state = .signedIn(name: user.name)
            case .login(.failure(let error)): state = .failed(message: "\(error)")
            }
        }
    }

    final class AuthService: Sendable {
        func logIn(_ credentials: Credentials) -> Response<User> {
            Response(on: DispatchQueue.global()) { User(name: credentials.username) }
        }
    }

    struct LoginInteractor {
        let auth: AuthService
        let dispatcher: AnyDispatcher<LoginAction>

        @discardableResult
        func login(_ credentials: Credentials) -> Response<User> {
            auth.logIn(credentials).dispatch(to: dispatcher, loading: .loading) { .login($0) }
        }
    }

    let auth = AuthService()
    let credentials = Credentials(username: "ada")

    @MainActor func render(_ screen: LoginScreen) {}

    func overview() {
        let presenter = Presenter(store: Store(LoginScreen.idle), translator: LoginTranslator())
        let interactor = LoginInteractor(auth: auth, dispatcher: presenter.asDispatcher())
        let observation = presenter.store.observe(on: .main) { screen in render(screen) }

        interactor.login(credentials)  // the screen shows .loading, then .signedIn or .failed

        _ = observation
    }
}
