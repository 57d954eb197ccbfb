import Dispatch
import Interactors

// The tour of `Response` and the toolkit: a login use case, written as an `Interactor`, registered on an
// `InteractorExecutor`, and called three ways: callbacks, blocking, async/await.

struct User: Sendable {
    let name: String
}

enum LoginError: Error {
    case wrongPassword
}

/// What the screen asks for. `Output` says what executing it produces, so `executor.execute(request)` is a
/// `Response<User>` with no casts.
struct LoginRequest: InteractorRequest {
    typealias Output = User
    let username: String
    let password: String
}

/// A request nobody registered an interactor for, to show what happens when one is executed.
struct LogoutRequest: InteractorRequest {
    typealias Output = Void
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

/// The use case. `execute` starts the work at once and hands back a `Response` synchronously; the callback
/// API is bridged with a resolver.
struct LoginInteractor: Interactor {
    let auth: FakeAuthService

    func execute(_ request: LoginRequest) -> Response<User> {
        Response { resolver in
            auth.authenticate(username: request.username, password: request.password) { resolver.resolve($0) }
        }
    }
}

@MainActor
func loginTour() async {
    print("== Response: a login use case, registered on an executor ==")
    let executor = InteractorExecutor()
    executor.register(LoginInteractor(auth: FakeAuthService()))

    // 1. Callbacks, the way a screen uses it: handlers on the main queue, typed @MainActor.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        executor.execute(LoginRequest(username: "ada", password: "secret"))
            .onCompletion(on: .main) { user in print("callbacks: welcome, \(user.name) (on the main actor)") }
            .onFailure(on: .main) { error in print("callbacks: failed with \(error)") }
            .onResult(on: .main) { _ in done.resume() }
    }

    // 2. Blocking, the way a test or a command-line tool uses it.
    blockingStyle(executor)

    // 3. Async/await.
    do {
        let user = try await executor.execute(LoginRequest(username: "grace", password: "secret")).value
        print("async: welcome, \(user.name)")
        _ = try await executor.execute(LoginRequest(username: "grace", password: "guess")).value
    } catch {
        print("async: a wrong password fails the response: \(error)")
    }

    // 4. A request with no interactor registered fails at once, with an error that says how to fix it.
    let logout = executor.execute(LogoutRequest())
    print("unregistered: executing LogoutRequest failed at once (isFailed = \(logout.isFailed)), saying:")
    do {
        try await logout.value
    } catch {
        print("unregistered: \(error)")
    }

    // 5. Cancelling: the response fails with CancellationError and the work hears about it.
    let (response, resolver) = Response<User>.makePending()
    resolver.onCancel { print("cancel: the work was told to stop (its onCancel handler ran)") }
    response.cancel()
    print("cancel: after response.cancel(), isCancelled = \(response.isCancelled)")
    let accepted = resolver.succeed(User(name: "too late"))
    print("cancel: the work's answer after cancelling is ignored: resolver.succeed(...) returned \(accepted)")
}

/// Blocking calls are for synchronous code; the compiler refuses them in `async` functions.
private func blockingStyle(_ executor: InteractorExecutor) {
    let response = executor.execute(LoginRequest(username: "linus", password: "secret"))
    print("blocking: the call returns before the work is done: isDone right after the call = \(response.isDone)")
    if let user = try? response.get() {
        print("blocking: get() waited and returned \(user.name); isSuccessful = \(response.isSuccessful)")
    }
    let wrong = executor.execute(LoginRequest(username: "linus", password: "nope"))
    let error = wrong.error.map { "\($0)" } ?? "none"
    print(
        "blocking: with a wrong password, the error property waits and returns \(error); isFailed = \(wrong.isFailed)"
    )

    let slow = Response<User> { resolver in
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(5)) { resolver.succeed(User(name: "late")) }
    }
    do {
        _ = try slow.get(timeout: .milliseconds(50))
    } catch {
        print("blocking: get(timeout: 50 ms) on a 5-second job gave up with \(error)")
    }
    slow.cancel()

    // Blocking on the very queue that owes the work does not deadlock: the work runs in the caller's place.
    let serial = DispatchQueue(label: "serial")
    let answer = serial.sync { try? Response(on: serial) { 21 * 2 }.get() }
    print("blocking: on a serial queue, get() for work queued to that same queue runs it inline: \(answer ?? -1)")
}
