import Interactors

// The code block of Sources/Interactors/Interactors.docc/Interactors.md, with the stand-ins it needs.

private struct InteractorsOverviewSnippets {
    struct User: Sendable { let name: String }

    struct LoginInteractor {
        func login(username: String, password: String) -> Response<User> { Response(value: User(name: username)) }
    }

    let loginInteractor = LoginInteractor()

    func greet(_ user: User) {}

    func overview() throws {
        let response = loginInteractor.login(username: "ada", password: "secret")

        response.onCompletion(on: .main) { user in greet(user) }  // callbacks, on the main actor
        let user = try response.get()  // blocking, for tests and CLIs
        print(response.isDone, response.isSuccessful)  // asking
        response.cancel()  // cancelling (no effect once settled)

        func currentUser() async throws -> User {  // async/await
            try await loginInteractor.login(username: "ada", password: "secret").value
        }

        _ = user
    }
}
