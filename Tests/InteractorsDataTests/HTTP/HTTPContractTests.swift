// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The public names and signatures issue 24 gives, spelled as it spells them and called the ways a user calls
/// them (trailing closures, defaults left out), each with the default it promises checked on the wire.
@Suite(.onThreadsOfTheirOwn) struct HTTPContractTests {
    typealias Echo = HTTPClientTests.Echo

    struct Issued: Decodable, Sendable { let token: String }

    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    // MARK: The signatures, exactly

    @Test func everyPublicNameHasTheSignatureTheIssueGives() {
        // Issue 33 added the last parameter, `idempotencyKeys:`.
        let client:
            (URL, URLSession?, [String: String], [any HTTPInterceptor], HTTPClient.Redirects, Int, Bool) -> HTTPClient =
                HTTPClient.init(baseURL:session:headers:interceptors:redirects:maxRetries:idempotencyKeys:)
        let forwarding: (Set<String>) -> HTTPClient.Redirects = HTTPClient.Redirects.follow(forwarding:)
        let follow: HTTPClient.Redirects = .follow
        let tokens:
            (
                String,
                @escaping @Sendable (String, inout URLRequest) -> Void,
                @escaping @Sendable (String) -> Bool,
                @escaping @Sendable (String) -> Response<String>,
                @escaping @Sendable (any Error) -> Bool
            ) -> TokenRefreshInterceptor<String> =
                TokenRefreshInterceptor<String>.init(credential:apply:needsRefresh:refresh:refreshesAfter:)
        let policy:
            (
                Int, Duration, Double, Duration?, Double, (any Clock<Duration>)?,
                @escaping @Sendable (any Error) -> Bool
            ) -> HTTPRetryPolicy = HTTPRetryPolicy.init(times:delay:backoff:maxDelay:jitter:clock:while:)
        let none: HTTPRetryPolicy = .none
        let source: (HTTPClient, String, HTTPRetryPolicy, Duration?) -> RESTDataSource<Note> =
            RESTDataSource<Note>.init(client:path:retry:timeout:)
        let send: (Endpoint<Echo>, HTTPRetryPolicy) -> Response<Echo> = client(
            server.baseURL,
            nil,
            [:],
            [],
            follow,
            3,
            false
        ).send(_:retry:)
        let method: KeyPath<HTTPError, String?> = \.method
        let url: KeyPath<HTTPError, URL?> = \.url
        let sendable: any Sendable = none
        let interceptor: any HTTPInterceptor = tokens("t", { _, _ in }, { _ in false }, { Response(value: $0) }) { _ in
            false
        }
        _ = (forwarding, policy, source, send, method, url, sendable, interceptor)

        #expect(follow == .follow(forwarding: []))
        #expect(HTTPMethod.head.rawValue == "HEAD" && HTTPMethod.options.rawValue == "OPTIONS")
        let localized: [any LocalizedError] = [
            DataError(code: .notFound, message: "m"), HTTPError(status: 503, body: Data("b".utf8)),
        ]
        #expect(
            localized.map(\.localizedDescription) == [
                "DataError.notFound: m", "HTTPError(503): b" + DataErrorTests.retryLater,
            ]
        )
        let plain = HTTPError(status: 503, body: Data("b".utf8), headers: HTTPHeaders(["Retry-After": "1"]))
        #expect(
            plain.method == nil && plain.url == nil
                && plain.description == "HTTPError(503): b" + DataErrorTests.retryLater
        )
    }

    @Test func issue33sNamesHaveTheSignaturesItGives() {
        let cancelAll: (HTTPClient) -> () -> Void = HTTPClient.cancelAll
        let codes: Set<URLError.Code> = HTTPRetryPolicy.retryableURLErrorCodes
        let keys: KeyPath<HTTPClient, Bool> = \.idempotencyKeys
        let client = HTTPClient(baseURL: server.baseURL, idempotencyKeys: true)  // the new last parameter, by name
        #expect(client.idempotencyKeys && !HTTPClient(baseURL: server.baseURL).idempotencyKeys)
        _ = (cancelAll, codes, keys)
    }

    @Test func issue36sHTTPMethodHasTheShapeItGives() {
        let method: (String) -> HTTPMethod = HTTPMethod.init(rawValue:)
        let raw: KeyPath<HTTPMethod, String> = \.rawValue
        func conforms<T: RawRepresentable & Hashable & Sendable>(_: T.Type) -> Bool where T.RawValue == String { true }
        #expect(conforms(HTTPMethod.self))
        #expect(method("QUERY")[keyPath: raw] == "QUERY")
        let members: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        #expect(members.count == 7)
    }

    // MARK: Called as a user calls them, the defaults checked

    @Test func aClientMadeWithItsDefaultsFollowsRedirectsAndAllowsThreeRetries() throws {
        struct AlwaysAgain: HTTPInterceptor {
            func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
                Response(value: true)
            }
        }
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [AlwaysAgain()])
        let moved = Endpoint<Echo>.get("moved/307/status/401", as: Echo.self)
        #expect((client.send(moved).error as? HTTPError)?.status == 401)
        let lines = try server.requestLines()
        #expect(lines == Array(repeating: ["GET /moved/307/status/401", "GET /status/401"], count: 4).flatMap { $0 })

        let onlyOnce = HTTPClient(baseURL: server.baseURL, interceptors: [AlwaysAgain()], maxRetries: 0)
        #expect((onlyOnce.send(.get("status/401", as: Echo.self)).error as? HTTPError)?.status == 401)
        #expect(try server.requestLines().count == lines.count + 1)
    }

    @Test func aTokenInterceptorWithItsDefaultsRefreshesOnlyAfterA401() throws {
        let tokens = HTTPClient(baseURL: server.baseURL)
        let issue = Endpoint<Issued>(method: .post, path: "token", decode: Endpoint<Issued>.jsonDecode)
        let auth = TokenRefreshInterceptor(credential: "expired") { token, request in
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        } refresh: { _ in
            tokens.send(issue).map(\.token)
        }
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
        #expect((client.send(.get("status/403", as: Echo.self)).error as? HTTPError)?.status == 403)
        #expect(try client.send(.get("auth/echo", as: Echo.self)).get().headers["authorization"] == "Bearer t1")
        // Sent at once with the credential it has (nothing needs a refresh first); refreshed after the 401 only.
        #expect(try server.requestLines() == ["GET /status/403", "GET /auth/echo", "POST /token", "GET /auth/echo"])
        #expect(auth.credential == "t1")

        let trailing = TokenRefreshInterceptor(
            credential: "c",
            apply: { token, request in request.setValue(token, forHTTPHeaderField: "X-Token") }
        ) { credential in Response(value: credential + "'") }
        #expect(try trailing.adapt(URLRequest(url: server.baseURL)).get().value(forHTTPHeaderField: "X-Token") == "c")
    }

    @Test func aRetryPolicyWithItsDefaultsRetriesWhatTheServerCouldNotAnswer() throws {
        let client = HTTPClient(baseURL: server.baseURL)
        _ = try client.send(.get("flaky/1/echo", as: Echo.self), retry: HTTPRetryPolicy(times: 1)).get()
        #expect(
            (client.send(.get("status/404", as: Echo.self), retry: HTTPRetryPolicy(times: 1)).error as? HTTPError)?
                .status == 404
        )
        #expect((client.send(.get("flaky/1/other", as: Echo.self)).error as? HTTPError)?.status == 503)
        #expect((client.send(.get("flaky/1/more", as: Echo.self), retry: .none).error as? HTTPError)?.status == 503)
        let conflicts = HTTPRetryPolicy(times: 1) { error in (error as? HTTPError)?.status == 409 }
        let flakyConflict = Endpoint<Echo>.get(
            "flaky/1/echo/conflict",
            query: [URLQueryItem(name: "status", value: "409")],
            as: Echo.self
        )
        _ = try client.send(flakyConflict, retry: conflicts).get()
        let full = HTTPRetryPolicy(times: 1, delay: .milliseconds(1), backoff: 2, maxDelay: .seconds(1), jitter: 0.5)
        let notes = RESTDataSource<Note>(client: client, path: "flaky/1/notes", retry: full, timeout: .seconds(30))
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(
            try server.requestLines() == [
                "GET /flaky/1/echo", "GET /flaky/1/echo", "GET /status/404", "GET /flaky/1/other", "GET /flaky/1/more",
                "GET /flaky/1/echo/conflict?status=409", "GET /flaky/1/echo/conflict?status=409", "GET /flaky/1/notes",
                "GET /flaky/1/notes",
            ]
        )
    }
}
#endif
