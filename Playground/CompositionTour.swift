import Dispatch
import Interactors
import Synchronization

// The tour of composition: a dashboard use case built from two others, with a timeout, retries that back off, and
// `all`.

struct Profile: Sendable {
    let name: String
}

struct Post: Sendable {
    let title: String
}

enum NetworkError: Error {
    case unreachable
}

/// A flaky backend: the first two profile requests fail (unreachable), the third answers; posts answer after a short wait.
final class FlakyBackend: Sendable {
    private let profileRequests = LockedCount()
    private let queue = DispatchQueue(label: "backend", attributes: .concurrent)

    func profile(id: Int) -> Response<Profile> {
        let attempt = profileRequests.next()
        return Response(on: queue) {
            guard attempt > 2 else { throw NetworkError.unreachable }
            return Profile(name: "user \(id)")
        }
    }

    func posts(for id: Int, page: Int) -> Response<[Post]> {
        Response(on: queue) {
            (0..<2).map { Post(title: "post \(page * 2 + $0) of user \(id)") }
        }
        .delay(by: .milliseconds(20))
    }

    /// Never answers: the timeout has to give up on it.
    func slowRecommendations() -> Response<[Post]> {
        Response { resolver in
            resolver.onCancel {
                print("composition: the recommendations request took too long; its 50 ms timeout cancelled it")
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(30)) { resolver.succeed([]) }
        }
    }
}

/// The composed use case: a profile (retried, with a timeout) and two pages of posts fetched in parallel.
struct LoadDashboard: Sendable {
    let backend: FlakyBackend

    func callAsFunction(userID: Int) -> Response<String> {
        let attempts = LockedCount()
        // Retried while the backend is unreachable, waiting 10 ms, then 20 ms, then 40 ms (backoff: 2); an error
        // the backend decided would not be retried.
        let profile = Response.retry(times: 3, delay: .milliseconds(10), backoff: 2, while: { $0 is NetworkError }) {
            print(
                "composition: fetching the profile, attempt \(attempts.next()) of at most 4 "
                    + "(retry(times: 3), waits doubling from 10 ms, only while unreachable)"
            )
            return backend.profile(id: userID).timeout(after: .seconds(1))
        }
        let posts = Response.all([backend.posts(for: userID, page: 0), backend.posts(for: userID, page: 1)])
            .map { pages in pages.flatMap { $0 } }
        let recommendations = backend.slowRecommendations()
            .timeout(after: .milliseconds(50))
            .recover { _ in [] }
        return Response.zip(profile, posts, recommendations)
            .map { profile, posts, recommendations in
                "\(profile.name): \(posts.count) posts (\(posts.map(\.title).joined(separator: ", "))), "
                    + "\(recommendations.count) recommendations"
            }
    }
}

func compositionTour() {
    print("\n== Composition: a dashboard from two use cases ==")
    let dashboard = LoadDashboard(backend: FlakyBackend())
    do {
        print("composition: the dashboard: \(try dashboard(userID: 7).get(timeout: .seconds(10)))")
    } catch {
        print("composition: failed with \(error)")
    }

    // Cancelling flows down a composition, but only once nothing needs the work any more.
    let upstream = FlakyBackend().posts(for: 1, page: 0)
    let titles = upstream.map { $0.map(\.title) }
    let count = upstream.map(\.count)
    titles.cancel()
    print(
        "composition: two responses are mapped from one posts request; cancelling the first leaves the request "
            + "running for the second: request cancelled = \(upstream.isCancelled)"
    )
    count.cancel()
    print(
        "composition: cancelling the second too cancels the request nobody needs: "
            + "request cancelled = \(upstream.isCancelled)"
    )
}

/// A counter the backend's requests share.
private final class LockedCount: Sendable {
    private let count = Atomic(0)

    func next() -> Int {
        count.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
