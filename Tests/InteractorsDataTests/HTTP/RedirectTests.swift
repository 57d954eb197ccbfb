// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Foundation
import Interactors
import InteractorsData
import DataTestSupport
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects keep the request (RFC 9110 §15.4), keep credentials and the app's headers at their origin, and end.
/// Checked on the wire, with a second server, and the first reached as `localhost`, for other origins.
@Suite(.onThreadsOfTheirOwn) struct RedirectTests {
    typealias Echo = HTTPClientTests.Echo

    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL, headers: ["Authorization": "Bearer secret", "X-App": "tests"])
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanentRedirectsResendMethodBodyAndHeaders(status: Int) throws {
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            let echo = try client.send(redirected(status, method, body: "the body")).get()
            #expect(echo.method == method.rawValue)
            #expect(echo.body == "the body")
            #expect(echo.headers["content-type"] == "text/plain")
            #expect(echo.headers["authorization"] == "Bearer secret")
        }
        let arrived = try server.received().filter { $0.path == "/echo/target" }
        #expect(arrived.map(\.method) == ["POST", "PUT", "PATCH", "DELETE"])
        #expect(arrived.allSatisfy { $0.body == "the body" && $0.headers["x-app"] == "tests" })
    }

    @Test(arguments: [301, 302])
    func movedAndFoundTurnOnlyAPOSTIntoAGETWithoutABody(status: Int) throws {
        let post = try client.send(redirected(status, .post, body: "the body")).get()
        #expect(post.method == "GET")
        #expect(post.body == "")
        #expect(post.headers["content-type"] == nil)
        #expect(post.headers["authorization"] == "Bearer secret")
        for method in [HTTPMethod.put, .patch, .delete, .options] {
            let echo = try client.send(redirected(status, method, body: "the body")).get()
            #expect(echo.method == method.rawValue)
            #expect(echo.body == "the body")
            #expect(echo.headers["content-type"] == "text/plain")
        }
        _ = try client.send(redirected(status, .get, body: nil)).get()
        try client.send(redirectedHead(status)).get()
        let arrived = try server.received().filter { $0.path == "/echo/target" }
        #expect(arrived.map(\.method) == ["GET", "PUT", "PATCH", "DELETE", "OPTIONS", "GET", "HEAD"])
        #expect(arrived.map(\.body) == ["", "the body", "the body", "the body", "the body", "", ""])
    }

    @Test func seeOtherTurnsEveryMethodButGETAndHEADIntoAGETWithoutABody() throws {
        for method in [HTTPMethod.post, .put, .patch, .delete, .options] {
            let echo = try client.send(redirected(303, method, body: "the body")).get()
            #expect(echo.method == "GET")
            #expect(echo.body == "")
            #expect(echo.headers["content-type"] == nil)
            #expect(echo.headers["x-app"] == "tests")
        }
        _ = try client.send(redirected(303, .get, body: nil)).get()
        try client.send(redirectedHead(303)).get()
        let arrived = try server.received().filter { $0.path == "/echo/target" }
        #expect(arrived.map(\.method) == ["GET", "GET", "GET", "GET", "GET", "GET", "HEAD"])
        #expect(arrived.allSatisfy { $0.body.isEmpty })
    }

    @Test func aPutOrDeleteThatWasMovedReachesTheNewLocation() throws {
        let cache = InMemoryDataSource<Note>()
        let moved = CacheRepository(main: RESTDataSource<Note>(client: client, path: "moved/301/notes"), cache: cache)
        let stored = try moved.put(Note(id: "n1", text: "new", revision: 1)).get()
        #expect(stored == Note(id: "n1", text: "new", revision: 2))  // the server's answer to the PUT
        #expect(try cache.get(IdQuery("n1")).get() == stored)
        let notes = RESTDataSource<Note>(client: client, path: "notes")
        #expect(try notes.get(IdQuery("n1")).get() == stored)

        try RESTDataSource<Note>(client: client, path: "moved/302/notes").delete(IdQuery("n1")).get()
        #expect(notes.get(IdQuery("n1")).dataError?.code == .notFound)
        #expect(
            try server.requestLines() == [
                "PUT /moved/301/notes/n1", "PUT /notes/n1", "GET /notes/n1", "DELETE /moved/302/notes/n1",
                "DELETE /notes/n1", "GET /notes/n1",
            ]
        )
    }

    // MARK: Credentials stay at their origin

    /// Every header the app sets, by the client, the endpoint or an interceptor.
    static let appHeaders = [
        "Authorization": "Bearer secret", "Proxy-Authorization": "Basic cHJveHk6cA==", "Cookie": "s=1",
        "X-Api-Key": "k", "Accept-Language": "fr", "User-Agent": "NotesApp/1.0",
    ]

    /// Adds `X-Adapted`, counting its calls.
    struct Adding: HTTPInterceptor {
        let adapts = LockedBox(0)
        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            adapts.withLock { $0 += 1 }
            var request = request
            request.setValue("yes", forHTTPHeaderField: "X-Adapted")
            return Response(value: request)
        }
    }

    enum OtherOrigin: String, CaseIterable { case anotherPortAndName, anotherName, anotherPort }

    @Test(arguments: OtherOrigin.allCases)
    func aRedirectToAnotherOriginCarriesOnlyTheHeadersThatSayHowToRead(_ origin: OtherOrigin) throws {
        let other = try RESTServer()
        let target: URL =
            switch origin {
            case .anotherPortAndName: other.localhostURL
            case .anotherName: server.localhostURL
            case .anotherPort: other.baseURL
            }
        let adding = Adding()
        let client = HTTPClient(baseURL: server.baseURL, headers: Self.appHeaders, interceptors: [adding])
        var endpoint = redirected(307, .post, body: "b", target: target.appendingPathComponent("echo/target"))
        endpoint.headers["X-Endpoint"] = "e"
        let echo = try client.send(endpoint).get()
        #expect(echo.method == "POST" && echo.body == "b")
        #expect(adding.adapts.withLock { $0 } == 1)

        let first = try #require(try server.received().first)
        for name in ["authorization", "proxy-authorization", "cookie", "x-api-key", "x-endpoint", "x-adapted"] {
            #expect(first.headers[name] != nil, "\(name) was sent to the request's own origin")
        }
        let hop = try #require(try (origin == .anotherName ? server : other).received().last)
        #expect(hop.path == "/echo/target")
        for name in ["authorization", "proxy-authorization", "cookie", "x-api-key", "x-endpoint", "x-adapted"] {
            #expect(hop.headers[name] == nil, "\(name) reached another origin")
        }
        #expect(hop.headers["accept-language"] == "fr")
        #expect(hop.headers["user-agent"] == "NotesApp/1.0")
        #expect(hop.headers["content-type"] == "text/plain")
    }

    @Test func theNamesTheAppListsFollowToAnotherOriginButCredentialsNever() throws {
        let other = try RESTServer()
        let client = HTTPClient(
            baseURL: server.baseURL,
            headers: Self.appHeaders,
            redirects: .follow(forwarding: ["x-api-key", "Authorization", "COOKIE", "Proxy-Authorization"])
        )
        _ = try client.send(redirected(308, .get, body: nil, target: other.localhostURL.appendingPathComponent("echo")))
            .get()
        let hop = try #require(try other.received().first)
        #expect(hop.headers["x-api-key"] == "k")
        #expect(hop.headers["authorization"] == nil)
        #expect(hop.headers["cookie"] == nil)
        #expect(hop.headers["proxy-authorization"] == nil)
        #expect(HTTPClient.Redirects.follow == .follow(forwarding: []))
        #expect(HTTPClient.Redirects.follow(forwarding: ["X-Api-Key"]) == .follow(forwarding: ["x-api-key"]))
    }

    /// Sets the headers it is given in `adapt`.
    struct Setting: HTTPInterceptor {
        let headers: [String: String]
        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            var request = request
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            return Response(value: request)
        }
    }

    @Test func theSixHeadersThatSayHowToReadReachAnotherOriginWithTheirValuesWhoeverSetThem() throws {
        let other = try RESTServer()
        let client = HTTPClient(
            baseURL: server.baseURL,
            headers: ["Accept": "application/json", "Accept-Encoding": "identity", "X-Client": "c"],
            interceptors: [
                Setting(headers: ["Content-Language": "de", "User-Agent": "NotesApp/2.0", "X-Adapted": "a"])
            ]
        )
        var endpoint = redirected(307, .put, body: "b", target: other.localhostURL.appendingPathComponent("echo"))
        endpoint.headers["Accept-Language"] = "fr-CH"
        endpoint.headers["X-Endpoint"] = "e"
        _ = try client.send(endpoint).get()
        let hop = try #require(try other.received().first)
        #expect(hop.method == "PUT" && hop.body == "b")
        let kept = [
            "accept": "application/json", "accept-encoding": "identity", "accept-language": "fr-CH",
            "content-language": "de", "content-type": "text/plain", "user-agent": "NotesApp/2.0",
        ]
        for (name, value) in kept {
            #expect(hop.headers[name] == value, "\(name)")
        }
        for name in ["x-client", "x-endpoint", "x-adapted"] {
            #expect(hop.headers[name] == nil, "\(name) reached another origin")
        }
    }

    @Test func credentialsTheEndpointOrAnInterceptorSetNeverReachAnotherOriginListedOrNot() throws {
        let other = try RESTServer()
        let client = HTTPClient(
            baseURL: server.baseURL,
            interceptors: [Setting(headers: ["Proxy-Authorization": "Basic cA==", "X-Adapted": "a"])],
            redirects: .follow(forwarding: [
                "authorization", "proxy-authorization", "cookie", "X-ENDPOINT", "x-adapted",
            ])
        )
        var endpoint = redirected(302, .get, body: nil, target: other.localhostURL.appendingPathComponent("echo"))
        endpoint.headers = ["Authorization": "Bearer e", "Cookie": "s=1", "X-Endpoint": "e"]
        _ = try client.send(endpoint).get()
        let first = try #require(try server.received().first)
        #expect(first.headers["authorization"] == "Bearer e" && first.headers["proxy-authorization"] == "Basic cA==")
        #expect(first.headers["cookie"] == "s=1")
        let hop = try #require(try other.received().first)
        #expect(hop.headers["authorization"] == nil)
        #expect(hop.headers["proxy-authorization"] == nil)
        #expect(hop.headers["cookie"] == nil)
        #expect(hop.headers["x-endpoint"] == "e")  // listed, whatever the case
        #expect(hop.headers["x-adapted"] == "a")
    }

    @Test func aRedirectBackToTheOriginalOriginCarriesItsHeadersAgain() throws {
        let other = try RESTServer()
        let adding = Adding()
        let client = HTTPClient(baseURL: server.baseURL, headers: Self.appHeaders, interceptors: [adding])
        let back = server.baseURL.appendingPathComponent("echo/back")
        var away = URLComponents(
            url: other.localhostURL.appendingPathComponent("redirect/307"),
            resolvingAgainstBaseURL: false
        )!
        away.queryItems = [URLQueryItem(name: "to", value: back.absoluteString)]

        let echo = try client.send(redirected(307, .put, body: "b", target: away.url!)).get()
        #expect(echo.method == "PUT" && echo.body == "b")
        for (name, value) in Self.appHeaders {
            #expect(echo.headers[name.lowercased()] == value)
        }
        #expect(echo.headers["x-adapted"] == "yes")
        #expect(echo.headers["content-type"] == "text/plain")
        #expect(try other.received().first?.headers["authorization"] == nil)

        // After a 303 the method is a GET: the headers that described the body stay behind.
        let afterSeeOther = try client.send(redirected(303, .post, body: "b", target: away.url!)).get()
        #expect(afterSeeOther.method == "GET" && afterSeeOther.body == "")
        #expect(afterSeeOther.headers["content-type"] == nil)
        #expect(afterSeeOther.headers["authorization"] == "Bearer secret")
        #expect(adding.adapts.withLock { $0 } == 2)  // once per send, never for a hop
    }

    @Test func aRedirectWithinTheOriginKeepsTheAuthorization() throws {
        let echo = try client.send(redirected(302, .get, body: nil)).get()
        #expect(echo.headers["authorization"] == "Bearer secret")
    }

    @Test func theEleventhRedirectFailsWithTooManyRedirectsNamingTheLastURL() throws {
        let error = try #require(client.send(.get("loop/0", as: Echo.self)).error as? URLError)
        #expect(error.code == .httpTooManyRedirects)
        #expect(error.failingURL?.path == "/loop/10")
        #expect(try server.requestLines() == (0...10).map { "GET /loop/\($0)" })
    }

    @Test func refusingRedirectsFailsWithTheRedirectsStatusAndHeaders() throws {
        let refusing = HTTPClient(baseURL: server.baseURL, redirects: .refuse)
        let error = try #require(refusing.send(redirected(308, .put, body: "b")).error as? HTTPError)
        #expect(error.status == 308)
        #expect(error.headers["location"]?.hasSuffix("/echo/target") == true)
        #expect(try server.requestLines().count == 1)
    }

    @Test func aRedirectAnsweredByAnErrorFailsWithThatError() throws {
        let error = try #require(
            client.send(redirected(307, .get, body: nil, target: "/status/503")).error as? HTTPError
        )
        #expect(error.status == 503)
        #expect(error.headers["retry-after"] == "7")
        #expect(error.method == "GET")
        #expect(error.url == server.baseURL.appendingPathComponent("status/503"))
    }

    /// A HEAD sent to `/redirect/<status>?to=/echo/target`.
    func redirectedHead(_ status: Int) -> Endpoint<Void> {
        Endpoint<Void>(
            method: .head,
            path: "redirect/\(status)",
            query: [URLQueryItem(name: "to", value: "/echo/target")]
        ) { _, _ in }
    }

    /// An endpoint sent to `/redirect/<status>?to=<target>`, which answers `status` with `Location: target`.
    func redirected(
        _ status: Int,
        _ method: HTTPMethod,
        body: String?,
        target: Any = "/echo/target"
    ) -> Endpoint<Echo> {
        Endpoint<Echo>(
            method: method,
            path: "redirect/\(status)",
            query: [URLQueryItem(name: "to", value: "\(target)")],
            headers: body == nil ? [:] : ["Content-Type": "text/plain"],
            body: body.map { Data($0.utf8) },
            decode: Endpoint<Echo>.jsonDecode
        )
    }
}

extension Endpoint where Output: Decodable {
    /// Decodes the body as JSON, for endpoints built in full.
    @Sendable static func jsonDecode(_ data: Data, _ response: HTTPURLResponse) throws -> Output {
        try JSONDecoder().decode(Output.self, from: data)
    }
}
#endif
