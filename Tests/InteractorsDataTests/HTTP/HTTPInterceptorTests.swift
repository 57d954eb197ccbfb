// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Interceptors adapt every send and decide whether a failed one goes again: the token refresh an app needs.
@Suite(.onThreadsOfTheirOwn) struct HTTPInterceptorTests {
    typealias Echo = HTTPClientTests.Echo

    /// Adds the current token; on a 401, refreshes it once and asks for the request again.
    final class TokenRefresher: HTTPInterceptor {
        let token = LockedBox("stale")
        let retries = LockedBox([(status: Int?, attempt: Int)]())

        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            var request = request
            request.setValue("Bearer \(token.withLock { $0 })", forHTTPHeaderField: "Authorization")
            return Response(value: request)
        }

        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            let status = (error as? HTTPError)?.status
            retries.withLock { $0.append((status, attempt)) }
            guard status == 401, attempt == 1 else { return Response(value: false) }
            token.withLock { $0 = "fresh" }
            return Response(value: true)
        }
    }

    /// Appends its name to the `X-Order` header, and answers `retry` as told.
    struct Named: HTTPInterceptor {
        let name: String
        var answer: Result<Bool, any Error> = .success(false)
        var asked: LockedBox<[String]>?

        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            var request = request
            let order = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
            request.setValue(order + name, forHTTPHeaderField: "X-Order")
            return Response(value: request)
        }

        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            asked?.withLock { $0.append("\(name) \(attempt)") }
            return Response(result: attempt > 1 ? .success(false) : answer)
        }
    }

    /// Holds its `adapt` or `retry` response pending, to be cancelled.
    final class Pending: HTTPInterceptor {
        let adaptResolver = LockedBox<Resolver<URLRequest>?>(nil)
        let retryResolver = LockedBox<Resolver<Bool>?>(nil)
        let retryAsked = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let holdsAdapt: Bool

        init(holdsAdapt: Bool) { self.holdsAdapt = holdsAdapt }

        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            guard holdsAdapt else { return Response(value: request) }
            let (response, resolver) = Response<URLRequest>.makePending()
            resolver.onCancel { [cancelled] in cancelled.signal() }
            adaptResolver.withLock { $0 = resolver }
            return response
        }

        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            let (response, resolver) = Response<Bool>.makePending()
            resolver.onCancel { [cancelled] in cancelled.signal() }
            retryResolver.withLock { $0 = resolver }
            retryAsked.signal()
            return response
        }
    }

    struct Refused: Error {}

    /// Makes `/status/<code>` answer without a `Retry-After`.
    let noRetryAfter = URLQueryItem(name: "retry_after", value: "")

    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    @Test func aRefusedTokenIsRefreshedOnceAndTheRequestSentAgain() throws {
        let refresher = TokenRefresher()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [refresher])
        let echo = try client.send(.get("private", as: Echo.self)).get()
        #expect(echo.headers["authorization"] == "Bearer fresh")
        #expect(try server.received().map { $0.headers["authorization"] } == ["Bearer stale", "Bearer fresh"])
        #expect(refresher.retries.withLock { $0.map(\.attempt) } == [1])
    }

    @Test func aSecondRefusalFailsWithTheOriginalError() throws {
        let refresher = TokenRefresher()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [RevokingAfterRefresh(refresher)])
        let error = try #require(client.send(.get("private", as: Echo.self)).error as? HTTPError)
        #expect(error.status == 401)
        #expect(refresher.retries.withLock { $0.map(\.attempt) } == [1, 2])
        #expect(try server.requestLines() == ["GET /private", "GET /private"])
    }

    @Test func adaptRunsInOrderBeforeEverySend() throws {
        let asked = LockedBox([String]())
        let client = HTTPClient(
            baseURL: server.baseURL,
            interceptors: [Named(name: "a", asked: asked), Named(name: "b", answer: .success(true), asked: asked)]
        )
        _ = client.send(.get("status/500", as: Echo.self)).error
        let orders = try server.received().map { $0.headers["x-order"] }
        #expect(orders == ["a,b", "a,b"])
        #expect(asked.withLock { $0 } == ["a 1", "b 1", "a 2", "b 2"])
    }

    @Test func theFirstTrueWinsAndLaterInterceptorsAreNotAsked() throws {
        let asked = LockedBox([String]())
        let client = HTTPClient(
            baseURL: server.baseURL,
            interceptors: [
                Named(name: "a", answer: .success(true), asked: asked),
                Named(name: "b", answer: .success(true), asked: asked),
            ]
        )
        _ = client.send(.get("status/503", as: Echo.self)).error
        #expect(asked.withLock { $0 } == ["a 1", "a 2", "b 2"])
        #expect(try server.requestLines().count == 2)
    }

    @Test func aFailedRetryFailsTheCallWithTheRetrysError() throws {
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [Named(name: "a", answer: .failure(Refused()))])
        #expect(client.send(.get("status/502", as: Echo.self)).error is Refused)
        #expect(try server.requestLines().count == 1)
    }

    /// Answers `true` to every `retry`, counting them.
    struct AlwaysAgain: HTTPInterceptor {
        let asked = LockedBox(0)
        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            asked.withLock { $0 += 1 }
            return Response(value: true)
        }
    }

    @Test(arguments: [3, 0, 1])
    func aCallSendsAtMostOnePlusMaxRetriesTimes(maxRetries: Int) throws {
        let always = AlwaysAgain()
        let client =
            maxRetries == 3
            ? HTTPClient(baseURL: server.baseURL, interceptors: [always])  // the default
            : HTTPClient(baseURL: server.baseURL, interceptors: [always], maxRetries: maxRetries)
        let error = try #require(client.send(.get("private", as: Echo.self)).error as? HTTPError)
        #expect(error.status == 401)
        #expect(always.asked.withLock { $0 } == maxRetries)
        #expect(try server.requestLines() == Array(repeating: "GET /private", count: 1 + maxRetries))
    }

    @Test func eachSendOfARetryPolicyHasItsOwnMaxRetries() throws {
        let always = AlwaysAgain()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [always], maxRetries: 2)
        let error = try #require(
            client.send(.get("status/503", query: [noRetryAfter], as: Echo.self), retry: HTTPRetryPolicy(times: 1))
                .error as? HTTPError
        )
        #expect(error.status == 503)
        #expect(always.asked.withLock { $0 } == 4)
        #expect(try server.requestLines().count == 6)
    }

    @Test func aRefusalFromAnotherOriginFailsTheCallAskingNoInterceptor() throws {
        let other = try RESTServer()
        let refresher = TokenRefresher()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [refresher])
        let target = other.localhostURL.appendingPathComponent("private")
        let error = try #require(
            client.send(
                Endpoint<Echo>(
                    method: .get,
                    path: "redirect/307",
                    query: [URLQueryItem(name: "to", value: target.absoluteString)],
                    decode: Endpoint<Echo>.jsonDecode
                )
            )
            .error as? HTTPError
        )
        #expect(error.status == 401)
        #expect(error.url == target)
        #expect(refresher.retries.withLock { $0.isEmpty })
        #expect(try other.received().map { $0.headers["authorization"] } == [nil])
        #expect(try server.requestLines().count == 1)
    }

    @Test func retrySeesTheHTTPErrorBeforeItBecomesNotFound() throws {
        let refresher = TokenRefresher()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [refresher])
        let notes = RESTDataSource<Note>(client: client, path: "gone")
        #expect(notes.get(IdQuery("ada")).dataError?.code == .notFound)
        #expect(refresher.retries.withLock { $0.map(\.status) } == [404])
    }

    @Test func retrySeesTheTransportError() throws {
        let seen = LockedBox([String]())
        struct Recording: HTTPInterceptor {
            let seen: LockedBox<[String]>
            func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
                seen.withLock { $0.append("\(type(of: error))") }
                return Response(value: false)
            }
        }
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [Recording(seen: seen)])
        server.stop()
        #expect(client.send(.get("notes", as: [Note].self)).error is URLError)
        #expect(seen.withLock { $0 } == ["URLError"])
    }

    @Test func aFailedAdaptFailsTheRequestWithoutSendingIt() throws {
        struct Failing: HTTPInterceptor {
            func adapt(_ request: URLRequest) -> Response<URLRequest> { Response(error: Refused()) }
        }
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [Failing()])
        #expect(client.send(.get("echo", as: Echo.self)).error is Refused)
        #expect(try server.requestLines() == [])
    }

    @Test func cancellingCancelsAPendingAdaptAndSendsNothing() throws {
        let pending = Pending(holdsAdapt: true)
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [pending])
        let response = client.send(.get("echo", as: Echo.self))
        response.cancel()
        #expect(pending.cancelled.wait(timeout: .now() + 30) == .success)
        let resolver = try #require(pending.adaptResolver.withLock { $0 })
        #expect(resolver.isCancelled)
        #expect(try server.requestLines() == [])
    }

    @Test func cancellingCancelsAPendingRetryAndSendsNothingMore() throws {
        let pending = Pending(holdsAdapt: false)
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [pending])
        let response = client.send(.get("status/500", as: Echo.self))
        try #require(pending.retryAsked.wait(timeout: .now() + 30) == .success)
        let retry = try #require(pending.retryResolver.withLock { $0 })
        response.cancel()
        // The retry's response may be linked to the cancelled one just after: it is cancelled then.
        #expect(pending.cancelled.wait(timeout: .now() + 30) == .success)
        #expect(retry.isCancelled)
        retry.succeed(true)
        #expect(response.isCancelled)
        #expect(try server.requestLines() == ["GET /status/500"])
    }
}

/// A token refresher whose refreshed token the server refuses too: it answers `true` once, then `false`.
struct RevokingAfterRefresh: HTTPInterceptor {
    let base: HTTPInterceptorTests.TokenRefresher

    init(_ base: HTTPInterceptorTests.TokenRefresher) { self.base = base }

    func adapt(_ request: URLRequest) -> Response<URLRequest> {
        var request = request
        request.setValue("Bearer revoked", forHTTPHeaderField: "Authorization")
        return Response(value: request)
    }

    func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
        base.retries.withLock { $0.append(((error as? HTTPError)?.status, attempt)) }
        return Response(value: attempt == 1)
    }
}
#endif
