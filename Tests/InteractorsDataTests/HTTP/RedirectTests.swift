// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects keep the request (RFC 9110), keep credentials at their origin, and end. Checked on the wire.
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

    @Test(arguments: [301, 302, 303])
    func otherRedirectsAfterANonGETBecomeAGETWithoutABody(status: Int) throws {
        for method in [HTTPMethod.post, .put, .delete] {
            let echo = try client.send(redirected(status, method, body: "the body")).get()
            #expect(echo.method == "GET")
            #expect(echo.body == "")
            #expect(echo.headers["content-type"] == nil)
        }
        let get = try client.send(redirected(status, .get, body: nil)).get()
        #expect(get.method == "GET")
        let arrived = try server.received().filter { $0.path == "/echo/target" }
        #expect(arrived.map(\.method) == ["GET", "GET", "GET", "GET"])
        #expect(arrived.allSatisfy { $0.body.isEmpty })
    }

    @Test func aRedirectToAnotherHostNameDropsTheAuthorization() throws {
        let other = try #require(
            URL(string: server.baseURL.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost"))
        )
        let echo = try client.send(
            redirected(307, .post, body: "b", target: other.appendingPathComponent("echo/target"))
        )
        .get()
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["x-app"] == "tests")
        #expect(echo.body == "b")
        let arrived = try server.received()
        #expect(arrived.map(\.headers).map { $0["authorization"] } == ["Bearer secret", nil])
    }

    @Test func aRedirectToAnotherPortDropsTheAuthorization() throws {
        let other = try RESTServer()
        let echo = try client.send(
            redirected(308, .put, body: "b", target: other.baseURL.appendingPathComponent("echo/target"))
        )
        .get()
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.body == "b" && echo.method == "PUT")
        #expect(try other.received().map { $0.headers["authorization"] } == [nil])
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
