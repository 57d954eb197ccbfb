import Dispatch
import Interactors
import InteractorsPresentation

// The tour of InteractorsPresentation: the login use case drives a login screen's state through a presenter.

/// Everything the login screen needs to draw itself.
enum LoginScreen: Sendable, CustomStringConvertible {
    case idle
    case loading
    case signedIn(name: String)
    case failed(reason: String)

    /// The screen, as text.
    var description: String {
        switch self {
        case .idle: "idle       [ username ] [ password ] (Sign in)"
        case .loading: "loading    [ username ] [ password ] (Signing in...)"
        case .signedIn(let name): "signed in  Welcome, \(name)!"
        case .failed(let reason): "failed     [ username ] [ password ] (Sign in)  ! \(reason)"
        }
    }
}

/// What the login use case reports.
enum LoginAction: Sendable {
    case loading
    case login(Result<User, any Error>)
}

/// The one place that decides what the screen shows.
struct LoginTranslator: Translator {
    func translate(_ action: LoginAction, state: inout LoginScreen) {
        switch action {
        case .loading: state = .loading
        case .login(.success(let user)): state = .signedIn(name: user.name)
        case .login(.failure(let error)): state = .failed(reason: "\(error)")
        }
    }
}

/// The login use case as a screen uses it: built with the presenter's dispatcher, and still returning a
/// `Response` to whoever calls it.
struct LoginScreenInteractor: Sendable {
    let useCase: LoginInteractor
    let dispatcher: AnyDispatcher<LoginAction>

    func signIn(username: String, password: String) -> Response<User> {
        useCase.execute(LoginRequest(username: username, password: password))
            .dispatch(to: dispatcher, loading: .loading) { .login($0) }
    }
}

// MARK: A search box

/// What the search screen shows.
enum SearchScreen: Sendable, Equatable, CustomStringConvertible {
    case idle
    case searching
    case results(query: String, titles: [String])

    var description: String {
        switch self {
        case .idle: "idle       [          ]"
        case .searching: "searching  [ ...      ]"
        case .results(let query, let titles): "results    [ \(query) ] \(titles.joined(separator: ", "))"
        }
    }
}

enum SearchAction: Sendable {
    case searching
    case found(Result<(query: String, titles: [String]), any Error>)
}

struct SearchTranslator: Translator {
    func translate(_ action: SearchAction, state: inout SearchScreen) {
        switch action {
        case .searching: state = .searching
        case .found(.success(let found)): state = .results(query: found.query, titles: found.titles)
        case .found(.failure): state = .idle
        }
    }
}

/// A book search that answers 50 ms after it is asked, and says when a search is cancelled.
struct FakeBookSearch: Sendable {
    func search(_ query: String) -> Response<(query: String, titles: [String])> {
        Response { resolver in
            resolver.onCancel { print("search: the search for \"\(query)\" was cancelled: a newer one replaced it") }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                resolver.succeed((query, ["\(query.capitalized) in Depth", "Learning \(query.capitalized)"]))
            }
        }
    }
}

/// A search per keystroke; only the latest is kept: `ResponseSlot` cancels the one it replaces, and a cancelled
/// search sends the screen nothing.
struct SearchBox: Sendable {
    let books: FakeBookSearch
    let dispatcher: AnyDispatcher<SearchAction>
    let latest = ResponseSlot<(query: String, titles: [String])>()

    @discardableResult
    func typed(_ text: String) -> Response<(query: String, titles: [String])> {
        latest.replace(with: books.search(text)).dispatch(to: dispatcher, loading: .searching) { .found($0) }
    }
}

extension String {
    fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}

@MainActor
func presentationTour() async {
    print("\n== InteractorsPresentation: a login screen ==")
    // Translations run on the default callback queue: the main queue, serviced while this function awaits.
    let presenter = Presenter(store: Store(LoginScreen.idle), translator: LoginTranslator())
    let interactor = LoginScreenInteractor(
        useCase: LoginInteractor(auth: FakeAuthService()),
        dispatcher: presenter.asDispatcher()
    )

    // The screen: the current state, then every change, none dropped.
    // The loop subscribes when iteration begins: the iterator is made here, before the first action, and the
    // loop runs in a task of its own.
    var states = presenter.store.states.makeAsyncIterator()
    let screen = Task {
        while let state = await states.next(isolation: #isolation) {
            print("screen: \(state)")
            if case .failed = state { return }
        }
    }

    _ = try? await interactor.signIn(username: "ada", password: "secret").value
    _ = try? await interactor.signIn(username: "ada", password: "guess").value
    await screen.value
    print("store.state is a snapshot, readable from any thread: \(presenter.store.state)")

    print("\n== InteractorsPresentation: a search box, one request per keystroke ==")
    let searchPresenter = Presenter(store: Store(SearchScreen.idle), translator: SearchTranslator())
    let searchBox = SearchBox(books: FakeBookSearch(), dispatcher: searchPresenter.asDispatcher())
    var observation: StoreObservation?
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        // Four keystrokes send `.searching` four times: the state stays equal, so the screen hears it once.
        observation = searchPresenter.store.observe(on: .main) { screen in
            print("search screen: \(screen)")
            if case .results = screen { done.resume() }
        }
        for text in ["s", "sw", "swi", "swift"] { searchBox.typed(text) }
    }
    observation?.cancel()
}
