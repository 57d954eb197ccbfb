import Interactors

// The code blocks of README.md, with the stand-ins they need. The second block is top-level code (a script's
// main.swift); here it is the body of a function that is compiled, not run.

private struct ReadmeSnippets {
    struct User: Sendable { let name: String }

    final class AuthService: Sendable {
        func authenticate(
            username: String,
            password: String,
            completion: @escaping @Sendable (Result<User, any Error>) -> Void
        ) {
            completion(.success(User(name: username)))
        }
    }

    func greet(_ user: User) {}

    /// What the screen asks for; `Output` is what executing it produces.
    struct LoginRequest: InteractorRequest {
        typealias Output = User
        let username: String
        let password: String
    }

    /// The use case: starts the work at once and hands back a `Response`.
    struct LoginInteractor: Interactor {
        let auth: AuthService

        func execute(_ request: LoginRequest) -> Response<User> {
            Response { resolver in
                auth.authenticate(username: request.username, password: request.password) { resolver.resolve($0) }
            }
        }
    }

    func sample() throws {
        let executor = InteractorExecutor()
        executor.register(LoginInteractor(auth: AuthService()))

        let response = executor.execute(LoginRequest(username: "ada", password: "secret"))
        response.onCompletion(on: .main) { user in greet(user) }  // callbacks, on the main actor
        let user = try response.get()  // blocking, for tests and CLIs
        print("logged in: \(user.name)")

        func logIn() async throws -> User {  // async/await
            try await executor.execute(LoginRequest(username: "ada", password: "secret")).value
        }
    }
}
