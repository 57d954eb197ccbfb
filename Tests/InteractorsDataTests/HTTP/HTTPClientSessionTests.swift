// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsTestKit
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a client does with the session it sends on, and with its calls as a whole: a session's own headers keep to
/// their origin, and `cancelAll()` ends every call in flight.
@Suite(.onThreadsOfTheirOwn) struct HTTPClientSessionTests {
    typealias Echo = HTTPClientTests.Echo

    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    // MARK: The session's additional headers

    @Test func aSessionsAdditionalHeadersGoOnEachRequestAndStayAtTheirOrigin() throws {
        let other = try RESTServer()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["x-api-key": "secret-key", "Accept-Language": "fr", "X-Overridden": "s"]
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let client = HTTPClient(baseURL: server.baseURL, session: session, headers: ["X-Overridden": "client"])
        #expect(client.request(for: .get("echo", as: Echo.self)).value(forHTTPHeaderField: "x-api-key") == "secret-key")

        let own = try client.send(.get("echo", as: Echo.self)).get(timeout: .seconds(30))
        #expect(own.headers["x-api-key"] == "secret-key")
        #expect(own.headers["x-overridden"] == "client")  // the client's header over the session's
        let redirect = Endpoint<Echo>.get(
            "redirect/302",
            query: [URLQueryItem(name: "to", value: other.localhostURL.appendingPathComponent("echo").absoluteString)],
            as: Echo.self
        )
        let hop = try client.send(redirect).get(timeout: .seconds(30))
        #expect(hop.headers["x-api-key"] == nil)
        #expect(hop.headers["accept-language"] == "fr")  // says how to read the answer: it follows
        #expect(
            try server.received().allSatisfy { $0.headerNames.filter { $0.lowercased() == "x-api-key" }.count == 1 }
        )
        #expect(try other.received().allSatisfy { $0.headers["x-api-key"] == nil })
    }

    // MARK: Cancelling every call

    /// Holds `adapt` of requests to paths with "held": the test settles them, or they are cancelled.
    final class HoldingAdapt: HTTPInterceptor {
        let resolvers = LockedBox([Resolver<URLRequest>]())
        let cancelled = DispatchSemaphore(value: 0)

        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            guard request.url?.path.contains("held") == true else { return Response(value: request) }
            let (response, resolver) = Response<URLRequest>.makePending()
            resolver.onCancel { [cancelled] in cancelled.signal() }
            resolvers.withLock { $0.append(resolver) }
            return response
        }
    }

    @Test func cancelAllCancelsEveryCallInFlightAndLaterCallsAreSent() async throws {
        let holding = HoldingAdapt()
        let clock = TestClock()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [holding])
        let slow = client.send(.get("slow", query: [URLQueryItem(name: "seconds", value: "240")], as: Echo.self))
        let held = client.send(.get("echo/held", as: Echo.self))
        let waiting = client.send(
            .get("flaky/9/echo", query: [URLQueryItem(name: "retry_after", value: "")], as: Echo.self),
            retry: HTTPRetryPolicy(times: 2, delay: .seconds(60), clock: clock)
        )
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))  // the policy waits to send again
        let started = try await onAThreadOfItsOwn { [server] in server.waitFor("slow started") }
        #expect(started)

        client.cancelAll()
        for call in [slow, held, waiting] {
            #expect(call.isCancelled)
            #expect(Self.failedWithCancellationError(call))
        }
        let closed = try await onAThreadOfItsOwn { [server] in server.waitFor("slow closed") }
        #expect(closed)  // its task was cancelled
        #expect(holding.cancelled.wait(timeout: .now() + 30) == .success)
        #expect(holding.resolvers.withLock { $0.allSatisfy(\.isCancelled) })
        await clock.advance(by: .seconds(600))
        let later = try await onAThreadOfItsOwn { [client] in try client.send(.get("echo/later", as: Echo.self)).get() }
        #expect(later.path == "/echo/later")
        let lines = try server.requestLines()
        #expect(lines.filter { $0.hasPrefix("GET /flaky") }.count == 1)  // nothing more was sent for it
        #expect(!lines.contains("GET /echo/held"))
    }

    /// Whether `call` failed with `CancellationError` (it has settled: no wait).
    static func failedWithCancellationError(_ call: Response<Echo>) -> Bool {
        call.error is CancellationError
    }

    @Test func cancelAllCancelsTheCallsWaitingForARefreshAndTheRefreshWithThem() throws {
        let resolvers = LockedBox([Resolver<String>]())
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
            needsRefresh: { $0 == "expired" },
            refresh: { _ in
                let (response, resolver) = Response<String>.makePending()
                resolvers.withLock { $0.append(resolver) }
                return response
            }
        )
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let calls = (0..<3).map { _ in client.send(.get("auth/echo", as: Echo.self)) }
        let refresh = try #require(resolvers.withLock { $0.first })
        client.cancelAll()
        #expect(calls.allSatisfy { $0.isCancelled && $0.error is CancellationError })
        #expect(refresh.isCancelled)  // no call waits on it any more
        #expect(try server.requestLines().isEmpty)
    }
}
#endif
