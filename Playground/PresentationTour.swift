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
    let states = presenter.store.states
    let screen = Task {
        for await state in states {
            print("screen: \(state)")
            if case .failed = state { return }
        }
    }

    _ = try? await interactor.signIn(username: "ada", password: "secret").value
    _ = try? await interactor.signIn(username: "ada", password: "guess").value
    await screen.value
    print("store.state is a snapshot, readable from any thread: \(presenter.store.state)")
}
