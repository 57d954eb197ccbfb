import Foundation
import Interactors

// The code blocks of Sources/Interactors/Interactors.docc/ComposingResponses.md, in order, with the stand-ins
// they need.

private struct ComposingResponsesSnippets {
    // MARK: Stand-ins

    struct User: Sendable {
        let name: String
        let displayName: String
        let avatarURL: String
    }
    struct Credentials: Sendable {}
    struct Settings: Sendable {}
    struct Config: Sendable {}
    struct Feed: Sendable {}
    struct Profile: Sendable {}
    struct Image: Sendable { static let placeholder = Image() }
    struct DomainError: Error {
        init(_ error: any Error) {}
    }

    struct FeedInteractor { func feed(for user: User) -> Response<Feed> { Response(value: Feed()) } }
    struct ProfileSource {
        func profile(_ id: Int) -> Response<Profile> { Response(value: Profile()) }
        func lookup(_ key: String) -> Response<Data> { Response(value: Data()) }
    }
    struct ConfigSource { func config() -> Response<Config> { Response(value: Config()) } }
    struct API {
        func user(_ id: Int) -> Response<User> { Response(value: User(name: "", displayName: "", avatarURL: "")) }
        func feed() -> Response<Feed> { Response(value: Feed()) }
    }
    struct Fetcher { func fetch(_ key: String) -> Response<Data> { Response(value: Data()) } }
    @MainActor final class ProgressView { var progress = 0.0 }

    let credentials = Credentials()
    let feedInteractor = FeedInteractor()
    let remote = ProfileSource(), cache = ProfileSource()
    let primary = ConfigSource(), mirror = ConfigSource()
    let api = API()
    let id = 1
    let friendID = 2
    let key = "key"
    let network = Fetcher()

    func login(_ credentials: Credentials) -> Response<User> { api.user(0) }
    func loadSettings() -> Response<Settings> { Response(value: Settings()) }
    func avatar(for user: User) -> Response<Image> { Response(value: Image()) }
    func profile(_ id: Int) -> Response<Profile> { remote.profile(id) }
    func showBanner() -> Response<Void> { Response(value: ()) }

    // MARK: Transforms

    func transforms(user: User) {
        let name = login(credentials).map { user in user.displayName }  // a throw fails it
        let feed = login(credentials).flatMap { user in feedInteractor.feed(for: user) }  // continue with a response
        let avatar = avatar(for: user).recover { _ in .placeholder }  // failure -> value
        let profile = remote.profile(id).flatRecover { _ in cache.profile(id) }  // failure -> response
        let typed = api.user(id).mapError { DomainError($0) }

        _ = (name, feed, avatar, profile, typed)
    }

    // MARK: Combinators

    func combinators() {
        let screen = Response.all([profile(id), profile(friendID)])  // [Value], input order; first failure fails it
        let pair = Response.zip(login(credentials), loadSettings())  // (User, Settings); any number of inputs
        let config = Response.any([primary.config(), mirror.config()])  // first success
        let fastest = Response.race([cache.lookup(key), network.fetch(key)])  // first settlement

        _ = (screen, pair, config, fastest)
    }

    // MARK: Time and retries

    func timeAndRetries() {
        let user = api.user(id).timeout(after: .seconds(2))  // fails with ResponseError.timedOut
        let later = showBanner().delay(by: .seconds(3))
        let feed = Response.retry(times: 3, delay: .milliseconds(200)) { api.feed() }  // up to 4 attempts

        _ = (user, later, feed)
    }

    struct AuthError: Error {}

    func retryPolicy() {
        let feed = Response.retry(
            times: 4,
            delay: .milliseconds(200),
            backoff: 2,  // 200 ms, 400 ms, 800 ms, then 1 s: the cap
            maxDelay: .seconds(1),
            jitter: 0.2,  // each wait between 80% and 120% of that, drawn afresh
            while: { error in !(error is AuthError) }  // asking again does not renew a session
        ) { api.feed() }

        _ = feed
    }

    func clocks(clock: any Clock<Duration>) {
        let user = api.user(id).timeout(after: .seconds(2), clock: clock)
        let feed = Response.retry(times: 3, delay: .milliseconds(200), clock: clock) { api.feed() }

        _ = (user, feed)
    }

    // MARK: Cancellation flows down

    func cancellation() {
        let upstream = api.user(id)
        let name = upstream.map(\.name)
        let avatar = upstream.map(\.avatarURL)
        name.cancel()  // upstream keeps going: `avatar` still needs it
        avatar.cancel()  // now upstream is cancelled, and its resolver's onCancel handlers run
    }

    // MARK: Progress

    @MainActor func progress(progressView: ProgressView) async {
        let (download, resolver) = Response<Data>.makePending()
        resolver.reportProgress(0.5)  // clamped to 0...1; lower values are ignored

        download.onProgress(on: .main) { fraction in progressView.progress = fraction }
        for await fraction in download.progress { print(fraction) }  // ends when the response settles
    }
}
