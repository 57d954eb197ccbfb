import Dispatch
import Interactors
import Testing

// The code blocks of Sources/Interactors/Interactors.docc/GettingStarted.md, in order, with the stand-ins they
// need. The test among them runs.

@Suite private struct GettingStartedSnippets {
    // MARK: Stand-ins

    struct User: Sendable {
        let id: Int
        let name: String
    }
    struct Credentials: Sendable { let username: String }
    struct Token: Sendable {}
    struct Session: Sendable {}
    struct Profile: Sendable {}
    struct SignOutFailed: Error {}

    final class AuthService: Sendable {
        func logInSynchronously(_ credentials: Credentials) throws -> User { User(id: 1, name: credentials.username) }
        func refresh(_ token: Token, completion: @escaping @Sendable (Result<Session, any Error>) -> Void) {
            completion(.success(Session()))
        }
        func profile(of id: Int) async throws -> Profile { Profile() }
        func signOut(_ session: Session, completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
    }

    final class LegacyLogin: Sendable {
        func start(onSuccess: @escaping @Sendable (User) -> Void, onError: @escaping @Sendable (any Error) -> Void) {}
    }

    @MainActor final class LoginScreen {
        func show(_ user: User) {}
        func show(_ error: any Error) {}
    }

    let interactor = AccountInteractor(auth: AuthService())
    let credentials = Credentials(username: "ada")
    let legacyLogin = LegacyLogin()

    // MARK: Write the interactor

    struct AccountInteractor {
        let auth: AuthService

        // Synchronous work, run on a queue of your choice.
        func login(_ credentials: Credentials) -> Response<User> {
            Response(on: DispatchQueue.global()) { try auth.logInSynchronously(credentials) }
        }

        // A callback API, bridged with a resolver.
        func refresh(_ token: Token) -> Response<Session> {
            Response { resolver in
                auth.refresh(token) { result in resolver.resolve(result) }
            }
        }

        // Async code, started at once in a task.
        func profile(of user: User) -> Response<Profile> {
            Response { try await auth.profile(of: user.id) }
        }
    }

    let auth = AuthService()

    func signOut(_ session: Session) -> Response<Bool> {
        Response { resolver in
            auth.signOut(session) { error in
                if let error {
                    resolver.fail(error)
                } else {
                    resolver.succeed(true)
                }
            }
        }
    }

    func pending() {
        let (response, resolver) = Response<User>.makePending()
        legacyLogin.start(onSuccess: { user in resolver.succeed(user) }, onError: { error in resolver.fail(error) })

        _ = response
    }

    // MARK: Call it

    // From a screen: handlers on the main actor.
    @MainActor func showLogin(_ credentials: Credentials, on screen: LoginScreen) {
        interactor.login(credentials)
            .onCompletion(on: .main) { user in screen.show(user) }
            .onFailure(on: .main) { error in screen.show(error) }
    }

    // From a test: block for the outcome.
    @Test func loginSucceeds() throws {
        let user = try interactor.login(credentials).get()
        #expect(user.name == "ada")
    }

    // From async code.
    func currentUser() async throws -> User {
        try await interactor.login(credentials).value
    }
}
