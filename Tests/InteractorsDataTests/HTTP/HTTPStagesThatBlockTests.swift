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

/// Issue 32: a stage after a call may block on the library, and the HTTP client still answers. Every blocking wait
/// here has a bound of its own, so that a hang shows as a failure, not as a test that never ends.
@Suite(.onThreadsOfTheirOwn) struct HTTPStagesThatBlockTests {
    typealias Echo = HTTPClientTests.Echo

    struct Issued: Decodable, Sendable { let token: String }

    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    /// Whether the calling code runs on the client's session's delegate queue.
    static var isOnTheDelegateQueue: Bool {
        OperationQueue.current?.name == "ix.http.delivery"
    }

    // Defect 3: in 200 calls, 5-33 stages ran on `ix.http.delivery`, where a wait for another call of the same
    // client never ends (that call's answer needs the queue).
    @Test func noStageOfACallRunsOnTheDelegateQueueAndEachMayWaitForAnotherCallOfTheClient() throws {
        let client = HTTPClient(baseURL: server.baseURL)
        let onTheDelegateQueue = LockedBox([Int]())
        for index in 0..<200 {
            let call = client.send(.get("echo/\(index)", as: Echo.self)).map { echo in
                if Self.isOnTheDelegateQueue { onTheDelegateQueue.withLock { $0.append(index) } }
                return try client.send(.get("echo/inner", as: Echo.self)).get(timeout: .seconds(3)).path + echo.path
            }
            let answer = Result { try call.get(timeout: .seconds(10)) }
            guard case .success(let paths) = answer else {
                Issue.record("call \(index) failed: \(answer)")
                break
            }
            #expect(paths == "/echo/inner/echo/\(index)")
        }
        #expect(onTheDelegateQueue.withLock { $0 } == [])
    }

    // Defect 2: two pollers `delay(by:).map { try client.send(me).get() }` against an API whose token refresh is
    // answered 503 once and retried by an HTTPRetryPolicy: the refresh finished only when the pollers' own waits
    // gave up (8 s), or never.
    @Test func twoPollersBlockedOnCallsWhoseTokenRefreshIsRetriedAfterA503AnswerInTime() throws {
        let tokens = HTTPClient(baseURL: server.baseURL)
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
            refresh: { _ in
                tokens.send(
                    Endpoint<Issued>(method: .get, path: "flaky/1/token", decode: Endpoint<Issued>.jsonDecode),
                    retry: HTTPRetryPolicy(times: 1, delay: .milliseconds(50))
                )
                .map(\.token)
            }
        )
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let polling = DispatchSemaphore(value: 0)
        let pollers = (0..<2).map { index in
            Response(value: ()).delay(by: .milliseconds(10)).map { _ in
                polling.signal()
                return try client.send(.get("auth/echo/\(index)", as: Echo.self)).get(timeout: .seconds(8))
            }
        }
        // Both stages run before the test waits on them: no caller of theirs runs them in its place.
        for _ in pollers { try #require(polling.wait(timeout: .now() + 10) == .success) }
        for (index, poller) in pollers.enumerated() {
            #expect(try poller.get(timeout: .seconds(2)).path == "/auth/echo/\(index)")
        }
        #expect(
            try server.requestLines().filter { $0.contains("token") } == ["GET /flaky/1/token", "GET /flaky/1/token"]
        )
    }

    // The rule's 64: with 64 stages of the client's calls blocked at once, each on a response the test settles
    // later, other calls of the client, through its interceptor and a retry policy, answer within 200 ms of their
    // median with nothing blocked, and none takes over 1 s.
    @Test func sixtyFourBlockedStagesLeaveTheClientsOtherCallsAnswering() throws {
        let tokens = HTTPClient(baseURL: server.baseURL)
        let issue = Endpoint<Issued>(method: .post, path: "token", decode: Endpoint<Issued>.jsonDecode)
        let token = try tokens.send(issue).get(timeout: .seconds(30)).token
        let auth = TokenRefreshInterceptor(
            credential: token,
            apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
            refresh: { _ in tokens.send(issue).map(\.token) }
        )
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let policy = HTTPRetryPolicy(times: 2, delay: .milliseconds(50))
        let failures = LockedBox([String]())
        let call = {
            do {
                _ = try client.send(.get("auth/echo/timed", as: Echo.self), retry: policy).get(timeout: .seconds(5))
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        _ = Latencies(of: 3, call)  // connections made, threads started
        let unblocked = Latencies(of: 21, call)

        let blocked = BlockedStages(64) { body in
            _ = client.send(.get("auth/echo/blocked", as: Echo.self), retry: policy).map { _ in body() }
        }
        defer { blocked.release() }
        #expect(blocked.allEntered)
        let whileBlocked = Latencies(of: 21, call)
        #expect(whileBlocked.areWithinTheBound(of: unblocked), "\(whileBlocked), against \(unblocked) unblocked")
        #expect(failures.withLock { $0 } == [])
    }
}
#endif
