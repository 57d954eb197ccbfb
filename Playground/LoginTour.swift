import Dispatch
import Interactors

// The tour of `Response`: a login use case over a fake authentication service, observed three ways.

struct User: Sendable {
    let name: String
}

enum LoginError: Error {
    case wrongPassword
}

/// A stand-in for a network backend: answers after a short delay, on its own queue, through a callback.
final class FakeAuthService: Sendable {
    private let queue = DispatchQueue(label: "fake-auth")

    func authenticate(
        username: String,
        password: String,
        completion: @escaping @Sendable (Result<User, LoginError>) -> Void
    ) {
        queue.asyncAfter(deadline: .now() + .milliseconds(30)) {
            completion(password == "secret" ? .success(User(name: username)) : .failure(.wrongPassword))
        }
    }
}

/// The use case. `login` starts the work at once and hands back a `Response` synchronously.
struct LoginInteractor: Sendable {
    let auth: FakeAuthService

    func login(username: String, password: String) -> Response<User> {
        Response { resolver in
            auth.authenticate(username: username, password: password) { resolver.resolve($0) }
        }
    }
}

@MainActor
func loginTour() async {
    print("== Response: a login interactor ==")
    let interactor = LoginInteractor(auth: FakeAuthService())

    // 1. Callbacks, the way a screen uses it: handlers on the main queue, typed @MainActor.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        interactor.login(username: "ada", password: "secret")
            .onCompletion(on: .main) { user in print("callbacks: welcome, \(user.name) (on the main actor)") }
            .onFailure(on: .main) { error in print("callbacks: failed with \(error)") }
            .onResult(on: .main) { _ in done.resume() }
    }

    // 2. Blocking, the way a test or a command-line tool uses it.
    blockingStyle(interactor)

    // 3. Async/await.
    do {
        let user = try await interactor.login(username: "grace", password: "secret").value
        print("async: welcome, \(user.name)")
        _ = try await interactor.login(username: "grace", password: "guess").value
    } catch {
        print("async: the second attempt failed with \(error)")
    }

    // 4. Cancelling: the response fails with CancellationError and the work hears about it.
    let (response, resolver) = Response<User>.makePending()
    resolver.onCancel { print("cancel: the work was told to stop") }
    response.cancel()
    print(
        "cancel: isCancelled = \(response.isCancelled), late resolution accepted = \(resolver.succeed(User(name: "x")))"
    )
}

/// Blocking calls are for synchronous code; the compiler refuses them in `async` functions.
private func blockingStyle(_ interactor: LoginInteractor) {
    let response = interactor.login(username: "linus", password: "secret")
    print("blocking: isDone right after the call = \(response.isDone)")
    if let user = try? response.get() {
        print("blocking: get() = \(user.name); isSuccessful = \(response.isSuccessful)")
    }
    let wrong = interactor.login(username: "linus", password: "nope")
    print("blocking: error = \(String(describing: wrong.error)); isFailed = \(wrong.isFailed)")

    let slow = Response<User> { resolver in
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(5)) { resolver.succeed(User(name: "late")) }
    }
    do {
        _ = try slow.get(timeout: .milliseconds(50))
    } catch {
        print("blocking: get(timeout:) threw \(error)")
    }
    slow.cancel()

    // Blocking on the very queue that owes the work does not deadlock: the work runs in the caller's place.
    let serial = DispatchQueue(label: "serial")
    let answer = serial.sync { try? Response(on: serial) { 21 * 2 }.get() }
    print("blocking: serial.sync { Response(on: serial) { 21 * 2 }.get() } = \(answer ?? -1)")
}
