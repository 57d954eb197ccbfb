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

/// A 401 with a challenge (`WWW-Authenticate`) is an answer like any other: on Linux, FoundationNetworking never
/// ended such a task, whatever its timeout. Every wait here is bounded, so a hang shows as a failure.
@Suite(.onThreadsOfTheirOwn) struct HTTPChallengeTests {
    struct Authenticated: Decodable, Sendable {
        let authenticated: Bool
        let user: String
    }

    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL)
    }

    @Test(arguments: ["Basic", "Digest", "Bearer", "none"])
    func a401WithAnyChallengeOrNoneFailsTheCallWithTheServersHeadersAndBody(scheme: String) throws {
        let call = client.send(.get("challenge/\(scheme)", as: Authenticated.self))
        let error = try #require(throws: HTTPError.self) { try call.get(timeout: .seconds(30)) }
        #expect(error.status == 401)
        #expect(error.bodyText == "challenge refused")
        #expect(error.headers["www-authenticate"] == (scheme == "none" ? nil : "\(scheme) realm=\"Fake Realm\""))
        #expect(error.url?.path == "/challenge/\(scheme)")
        #expect(try server.requestLines() == ["GET /challenge/\(scheme)"])  // no second request
    }

    @Test func httpbinsBasicAuthAnswers401WithoutACredentialAnd200WithIt() throws {
        let refused = client.send(.get("basic-auth/user/passwd", as: Authenticated.self))
        #expect((try #require(throws: HTTPError.self) { try refused.get(timeout: .seconds(30)) }).status == 401)
        let basic = "Basic " + Data("user:passwd".utf8).base64EncodedString()
        let client = HTTPClient(baseURL: server.baseURL, headers: ["Authorization": basic])
        let answer = try client.send(.get("basic-auth/user/passwd", as: Authenticated.self)).get(timeout: .seconds(30))
        #expect(answer.authenticated && answer.user == "user")
    }

    /// Logs in when asked to retry a 401: the next send carries the credential.
    final class LogsInOnA401: HTTPInterceptor {
        let loggedIn = LockedBox(false)
        let asked = LockedBox([Int]())

        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            guard loggedIn.withLock({ $0 }) else { return Response(value: request) }
            var request = request
            request.setValue(
                "Basic " + Data("user:passwd".utf8).base64EncodedString(),
                forHTTPHeaderField: "Authorization"
            )
            return Response(value: request)
        }

        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            asked.withLock { $0.append((error as? HTTPError)?.status ?? 0) }
            loggedIn.withLock { $0 = true }
            return Response(value: true)
        }
    }

    @Test func theInterceptorsAreAskedAboutABasicChallengeAsAboutAny401() throws {
        let login = LogsInOnA401()
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [login])
        let answer = try client.send(.get("basic-auth/user/passwd", as: Authenticated.self)).get(timeout: .seconds(30))
        #expect(answer.user == "user")
        #expect(login.asked.withLock { $0 } == [401])
        let sent = try server.received().map { $0.headers["authorization"] }
        #expect(sent == [nil, "Basic " + Data("user:passwd".utf8).base64EncodedString()])
    }

    @Test func aSessionPassedInAnswersABasicChallengeWithTheHeaders() throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = HTTPClient(baseURL: server.baseURL, session: session)
        let call = client.send(.get("challenge/Basic", as: Authenticated.self))
        let error = try #require(throws: HTTPError.self) { try call.get(timeout: .seconds(30)) }
        #expect(error.status == 401)
        #expect(error.headers["www-authenticate"] == "Basic realm=\"Fake Realm\"")
        // A task with a completion handler hears no body on Linux: documented on `HTTPClient.init`.
        #if canImport(FoundationNetworking)
        #expect(error.body.isEmpty)
        #else
        #expect(error.bodyText == "challenge refused")
        #endif
        #expect(try server.requestLines() == ["GET /challenge/Basic"])
    }

    @Test func theURLSessionBridgeAnswersABasicChallenge() throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: server.baseURL.appendingPathComponent("challenge/Basic"))
        let (_, response) = try session.response(for: request).get(timeout: .seconds(30))
        #expect(response.statusCode == 401)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == "Basic realm=\"Fake Realm\"")
    }
}
#endif
