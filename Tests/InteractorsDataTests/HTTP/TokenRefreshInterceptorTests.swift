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

/// The token interceptor against a server that rotates its token: `POST /token` issues a new one, and `/auth/…`
/// accepts only the last one issued. Refreshes and sends are counted on the wire.
@Suite(.onThreadsOfTheirOwn) struct TokenRefreshInterceptorTests {
    typealias Echo = HTTPClientTests.Echo

    struct Issued: Decodable, Sendable { let token: String }
    struct RefreshFailed: Error {}

    let server: RESTServer
    /// Asks the server for tokens, without an interceptor.
    let tokens: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        tokens = HTTPClient(baseURL: server.baseURL)
    }

    /// `POST /token`, answered after `seconds`.
    static func issue(after seconds: Int = 0) -> Endpoint<Issued> {
        Endpoint<Issued>(
            method: .post,
            path: "token",
            query: seconds > 0 ? [URLQueryItem(name: "seconds", value: "\(seconds)")] : [],
            decode: Endpoint<Issued>.jsonDecode
        )
    }

    @Sendable static func bearer(_ token: String, _ request: inout URLRequest) {
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }

    /// An interceptor starting with "expired" that refreshes from the server, each refresh answered after the
    /// next of `holds` seconds (0 once they run out).
    func interceptor(
        holds: [Int] = [],
        needsRefresh: @escaping @Sendable (String) -> Bool = { _ in false }
    ) -> TokenRefreshInterceptor<String> {
        let holds = LockedBox(holds)
        return TokenRefreshInterceptor(
            credential: "expired",
            apply: Self.bearer,
            needsRefresh: needsRefresh,
            refresh: { [tokens] _ in
                let seconds = holds.withLock { $0.isEmpty ? 0 : $0.removeFirst() }
                return tokens.send(Self.issue(after: seconds)).map(\.token)
            }
        )
    }

    /// An interceptor whose refreshes the test settles; `resolvers` gets each refresh's resolver as it starts.
    func heldInterceptor(_ resolvers: LockedBox<[Resolver<String>]>) -> TokenRefreshInterceptor<String> {
        TokenRefreshInterceptor(
            credential: "expired",
            apply: Self.bearer,
            needsRefresh: { $0 == "expired" },
            refresh: { _ in
                let (response, resolver) = Response<String>.makePending()
                resolvers.withLock { $0.append(resolver) }
                return response
            }
        )
    }

    func refreshCount() throws -> Int {
        try server.received().filter { $0.path == "/token" }.count
    }

    func authorizations(of path: String) throws -> [String?] {
        try server.received().filter { $0.path == path }.map { $0.headers["authorization"] }
    }

    // MARK: One refresh, however many refusals

    /// With a refresh that takes a second, the refusals join it; with one answered at once, most arrive after it
    /// and are sent again with the newer token without another refresh.
    @Test(arguments: [1, 0])
    func twentyConcurrentRefusalsCauseOneRefreshAndEachCallIsSentOnceMore(refreshSeconds: Int) throws {
        _ = try RESTDataSource<Note>(client: tokens, path: "notes").put(ada).get()
        let auth = interceptor(holds: [refreshSeconds])
        let notes = RESTDataSource<Note>(
            client: HTTPClient(baseURL: server.baseURL, interceptors: [auth]),
            path: "auth/notes"
        )

        let calls = (0..<20).map { _ in notes.getAll(AllObjectsQuery()) }
        for call in calls {
            #expect(try call.get(timeout: .seconds(60)).map(\.id) == ["ada"])
        }
        #expect(try refreshCount() == 1)
        let sent = try authorizations(of: "/auth/notes")
        #expect(sent.filter { $0 == "Bearer t1" }.count == 20)
        #expect(sent.count == 20 + sent.filter { $0 == "Bearer expired" }.count)
        #expect(auth.credential == "t1")
    }

    @Test func aRequestRefusedWithAnOlderCredentialIsSentAgainWithoutARefresh() throws {
        let auth = interceptor()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        // Refused only once a token has been issued: by then the interceptor has a newer credential.
        let late = client.send(
            .get("auth/echo/late", query: [URLQueryItem(name: "refuse_when_issued", value: "1")], as: Echo.self)
        )
        let early = try client.send(.get("auth/echo/early", as: Echo.self)).get(timeout: .seconds(60))
        #expect(early.headers["authorization"] == "Bearer t1")
        #expect(try late.get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
        #expect(try refreshCount() == 1)

        var stale = URLRequest(url: server.baseURL.appendingPathComponent("auth/echo"))
        Self.bearer("expired", &stale)
        #expect(try auth.retry(stale, after: HTTPError(status: 401), attempt: 1).get())
        #expect(try refreshCount() == 1)
    }

    @Test func aRequestMadeWhileARefreshIsUnderWayWaitsForItAndIsSentOnceWithTheNewCredential() throws {
        let resolvers = LockedBox([Resolver<String>]())
        let started = DispatchSemaphore(value: 0)
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: Self.bearer,
            refresh: { _ in
                let (response, resolver) = Response<String>.makePending()
                resolvers.withLock { $0.append(resolver) }
                started.signal()
                return response
            }
        )
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let refused = client.send(.get("auth/echo/refused", as: Echo.self))
        try #require(started.wait(timeout: .now() + 60) == .success, "the 401 started no refresh")
        let refresh = try #require(resolvers.withLock { $0.first })
        let later = client.send(.get("auth/echo/later", as: Echo.self))
        #expect(try server.requestLines() == ["GET /auth/echo/refused"])  // the later one waits, unsent
        refresh.succeed(try tokens.send(Self.issue()).get().token)
        #expect(try later.get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
        #expect(try refused.get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
        #expect(try authorizations(of: "/auth/echo/later") == ["Bearer t1"])
        #expect(try authorizations(of: "/auth/echo/refused") == ["Bearer expired", "Bearer t1"])
        #expect(resolvers.withLock { $0.count } == 1)
    }

    @Test func itsCredentialStaysAtItsOriginAndARefusalFromAnotherAsksNoRefresh() throws {
        let other = try RESTServer()
        let auth = interceptor()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let target = other.localhostURL.appendingPathComponent("auth/echo")
        let error = try #require(
            client.send(
                Endpoint<Echo>(
                    method: .get,
                    path: "redirect/302",
                    query: [URLQueryItem(name: "to", value: target.absoluteString)],
                    decode: Endpoint<Echo>.jsonDecode
                )
            )
            .error as? HTTPError
        )
        #expect(error.status == 401 && error.url == target)
        #expect(try other.received().map { $0.headers["authorization"] } == [nil])
        #expect(try server.received().map(\.path) == ["/redirect/302"])
        #expect(auth.credential == "expired")
    }

    @Test func aCredentialThatNeedsARefreshIsRefreshedBeforeTheRequestIsSent() throws {
        let auth = interceptor(needsRefresh: { $0 == "expired" })
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        #expect(try client.send(.get("auth/echo", as: Echo.self)).get().headers["authorization"] == "Bearer t1")
        #expect(try server.requestLines() == ["POST /token", "GET /auth/echo"])
    }

    @Test func onlyTheFailuresRefreshesAfterNamesCauseARefresh() throws {
        let auth = interceptor()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        #expect((client.send(.get("status/403", as: Echo.self)).error as? HTTPError)?.status == 403)
        #expect(try refreshCount() == 0)
    }

    @Test func aServerThatRefusesEveryCredentialCostsAtMostMaxRetriesRefreshes() throws {
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: { token, request in Self.bearer("revoked-" + token, &request) },
            refresh: { [tokens] _ in tokens.send(Self.issue()).map(\.token) }
        )
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        #expect((client.send(.get("auth/echo", as: Echo.self)).error as? HTTPError)?.status == 401)
        #expect(try refreshCount() == 3)
        #expect(try authorizations(of: "/auth/echo").count == 4)
    }

    // MARK: A refresh that fails

    @Test func aRefreshSentThroughTheClientItRefreshesForFailsWithAMessageInsteadOfHanging() throws {
        let client = LockedBox<HTTPClient?>(nil)
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: Self.bearer,
            needsRefresh: { $0 == "expired" },
            refresh: { _ in client.withLock { $0! }.send(Self.issue()).map(\.token) }
        )
        client.withLock { $0 = HTTPClient(baseURL: server.baseURL, interceptors: [auth]) }
        let call = client.withLock { $0! }.send(.get("auth/echo", as: Echo.self))
        #expect(throws: (any Error).self) { try call.get(timeout: .seconds(10)) }
        let error = try #require(call.error as? DataError)
        #expect(error.code == .invalidQuery)
        #expect(error.message.contains("a client without this interceptor"))
        #expect(auth.credential == "expired")
        #expect(try server.requestLines().isEmpty)
    }

    /// A refresh that sends through the client it refreshes for from a stage of its own responses, `depth`
    /// `flatMap`s deep: `tokens.send(issue).flatMap { … client.send(me) }`. Only its first refresh does so.
    func refreshingThroughItsOwnClient(depth: Int) throws -> (TokenRefreshInterceptor<String>, HTTPClient) {
        let client = LockedBox<HTTPClient?>(nil)
        let refreshes = LockedBox(0)
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: Self.bearer,
            refresh: { [tokens] _ in
                let first = refreshes.withLock { count in
                    count += 1
                    return count == 1
                }
                guard first else { return tokens.send(Self.issue()).map(\.token) }
                var chain = tokens.send(Self.issue()).map(\.token)
                for _ in 1..<depth {
                    chain = chain.flatMap { token in tokens.send(.get("echo", as: Echo.self)).map { _ in token } }
                }
                return chain.flatMap { token in
                    client.withLock { $0! }.send(.get("auth/echo/me", as: Echo.self)).map { _ in token }
                }
            }
        )
        client.withLock { $0 = HTTPClient(baseURL: server.baseURL, interceptors: [auth]) }
        return (auth, client.withLock { $0! })
    }

    @Test(arguments: [1, 3])
    func aRefreshThatSendsThroughItsOwnClientFromAStageFailsAtOnceAndTheNextRefusalStartsAnother(depth: Int) throws {
        let (auth, client) = try refreshingThroughItsOwnClient(depth: depth)
        let call = client.send(.get("auth/echo/first", as: Echo.self))
        let error = try #require(throws: DataError.self) { try call.get(timeout: .seconds(10)) }
        #expect(error.code == .invalidQuery)
        #expect(error.message.contains("from inside its refresh"))
        #expect(auth.credential == "expired")
        // The flight ended: a later call starts another refresh, which does not send through the client.
        let later = try client.send(.get("auth/echo/later", as: Echo.self)).get(timeout: .seconds(10))
        #expect(later.headers["authorization"] == "Bearer t2")
        #expect(try refreshCount() == 2)
        #expect(try server.received().map(\.path).contains("/auth/echo/me") == false)
    }

    /// An interceptor refreshing from the server whose `apply` adds a nonce too, and the count of its calls.
    func withANoncePerSend() -> (TokenRefreshInterceptor<String>, LockedBox<Int>) {
        let applied = LockedBox(0)
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: { token, request in
                applied.withLock { $0 += 1 }
                Self.bearer(token, &request)
                request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Nonce")
            },
            refresh: { [tokens] _ in tokens.send(Self.issue()).map(\.token) }
        )
        return (auth, applied)
    }

    @Test func anApplyThatAddsAPerRequestHeaderStillRefreshesAndIsCalledOncePerSend() throws {
        let (auth, applied) = withANoncePerSend()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let echo = try client.send(.get("auth/echo", as: Echo.self)).get(timeout: .seconds(30))
        #expect(echo.headers["authorization"] == "Bearer t1")
        #expect(try refreshCount() == 1)
        #expect(try authorizations(of: "/auth/echo") == ["Bearer expired", "Bearer t1"])
        #expect(applied.withLock { $0 } == 2)  // once per send
    }

    @Test func aRequestRefusedWithAnOlderCredentialIsSentAgainWithoutARefreshWhateverApplyAdds() throws {
        let (auth, applied) = withANoncePerSend()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let late = client.send(
            .get("auth/echo/late", query: [URLQueryItem(name: "refuse_when_issued", value: "1")], as: Echo.self)
        )
        _ = try client.send(.get("auth/echo/early", as: Echo.self)).get(timeout: .seconds(60))
        #expect(try late.get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
        #expect(try refreshCount() == 1)
        #expect(applied.withLock { $0 } == 4)  // two sends each
    }

    @Test func aRefreshThatFailsFailsTheCallWithTheRefreshsError() throws {
        let auth = TokenRefreshInterceptor(
            credential: "expired",
            apply: Self.bearer,
            refresh: { [tokens] _ in
                tokens.send(
                    Endpoint<Issued>(
                        method: .post,
                        path: "status/503",
                        query: [URLQueryItem(name: "retry_after", value: "")],
                        decode: Endpoint<Issued>.jsonDecode
                    )
                )
                .map(\.token)
            }
        )
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        for _ in 0..<2 {
            let error = try #require(client.send(.get("auth/echo", as: Echo.self)).error as? HTTPError)
            #expect(error.status == 503)
            #expect(error.url?.path == "/status/503")
        }
        #expect(auth.credential == "expired")
        // Each call started a refresh of its own: a failed one is not tried again by the interceptor.
        #expect(
            try server.requestLines() == [
                "GET /auth/echo", "POST /status/503?retry_after=", "GET /auth/echo", "POST /status/503?retry_after=",
            ]
        )
    }

    @Test func aFailedRefreshFailsEveryCallWaitingOnItAndTheNextCallStartsAnother() throws {
        let resolvers = LockedBox([Resolver<String>]())
        let auth = heldInterceptor(resolvers)
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])

        let calls = (0..<5).map { _ in client.send(.get("auth/echo", as: Echo.self)) }
        let first = try #require(resolvers.withLock { $0.count == 1 ? $0.first : nil })
        first.fail(RefreshFailed())
        for call in calls {
            #expect(call.error is RefreshFailed)
        }
        #expect(auth.credential == "expired")
        #expect(try server.requestLines() == [])

        let next = client.send(.get("auth/echo", as: Echo.self))
        let second = try #require(resolvers.withLock { $0.count == 2 ? $0.last : nil })
        second.succeed(try tokens.send(Self.issue()).get().token)
        #expect(try next.get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
    }

    // MARK: Cancelling

    @Test func cancellingOneCallKeepsTheRefreshTheOthersWaitOn() throws {
        let resolvers = LockedBox([Resolver<String>]())
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [heldInterceptor(resolvers)])
        let calls = (0..<3).map { index in client.send(.get("auth/echo/\(index)", as: Echo.self)) }
        let refresh = try #require(resolvers.withLock { $0.count == 1 ? $0.first : nil })

        calls[0].cancel()
        #expect(calls[0].isCancelled)
        #expect(!refresh.isCancelled)
        refresh.succeed(try tokens.send(Self.issue()).get().token)
        #expect(try calls[1].get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
        #expect(try calls[2].get(timeout: .seconds(60)).headers["authorization"] == "Bearer t1")
        let lines = try server.requestLines()  // the cancelled call never sent anything
        #expect(lines.count == 3 && lines.first == "POST /token")
        #expect(Set(lines.dropFirst()) == ["GET /auth/echo/1", "GET /auth/echo/2"])
    }

    @Test func cancellingEveryCallWaitingOnARefreshCancelsIt() throws {
        let auth = interceptor(holds: [240], needsRefresh: { $0 == "expired" })
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        let calls = (0..<2).map { _ in client.send(.get("auth/echo", as: Echo.self)) }
        #expect(server.waitFor("token started"))
        for call in calls { call.cancel() }
        #expect(server.waitFor("token closed"))  // the refresh's request was cancelled
        #expect(auth.credential == "expired")

        #expect(try client.send(.get("auth/echo", as: Echo.self)).get().headers["authorization"] == "Bearer t1")
        #expect(try server.requestLines() == ["POST /token?seconds=240", "POST /token", "GET /auth/echo"])
    }

    // MARK: Many threads at once

    @Test func fiftyConcurrentCallsFromManyThreadsShareOneRefresh() throws {
        _ = try RESTDataSource<Note>(client: tokens, path: "notes").put(ada).get()
        let auth = interceptor(holds: [1])
        let notes = RESTDataSource<Note>(
            client: HTTPClient(baseURL: server.baseURL, interceptors: [auth]),
            path: "auth/notes"
        )
        let calls = LockedBox([Response<[Note]>]())
        let seen = LockedBox(Set<String>())
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            let call = notes.getAll(AllObjectsQuery())
            calls.withLock { $0.append(call) }
            let credential = auth.credential
            seen.withLock { _ = $0.insert(credential) }
        }
        for call in calls.withLock({ $0 }) {
            #expect(try call.get(timeout: .seconds(60)).map(\.id) == ["ada"])
        }
        #expect(try refreshCount() == 1)
        #expect(seen.withLock { $0.isSubset(of: ["expired", "t1"]) })
        #expect(try authorizations(of: "/auth/notes").filter { $0 == "Bearer t1" }.count == 50)
    }
}
#endif
