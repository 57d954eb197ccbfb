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

/// `idempotencyKeys: true`: every POST and PATCH carries an `Idempotency-Key`, one per call, the same on each of
/// its sends; the fixture server keeps the answer of each key of `POST /idempotent/<collection>` and answers a
/// repeat with it, as a server that deduplicates does.
@Suite(.onThreadsOfTheirOwn) struct IdempotencyKeyTests {
    typealias Echo = HTTPClientTests.Echo

    let server: RESTServer
    let keyed: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        keyed = HTTPClient(baseURL: server.baseURL, idempotencyKeys: true)
    }

    func echo(_ method: HTTPMethod, _ path: String = "echo", headers: [String: String] = [:]) -> Endpoint<Echo> {
        Endpoint<Echo>(method: method, path: path, headers: headers, body: method == .get ? nil : Data("{}".utf8)) {
            data,
            _ in
            try JSONDecoder().decode(Echo.self, from: data)
        }
    }

    func keys(of path: String) throws -> [String?] {
        try server.received().filter { $0.path == path }.map { $0.headers["idempotency-key"] }
    }

    @Test func everyPOSTAndPATCHCarriesANewKeyPerCallAndOtherMethodsNone() throws {
        var sent: [HTTPMethod: [String?]] = [:]
        for method in [HTTPMethod.post, .post, .patch, .get, .put, .delete, .options] {
            sent[method, default: []].append(
                try keyed.send(echo(method)).get(timeout: .seconds(30)).headers["idempotency-key"]
            )
        }
        let posts = try #require(sent[.post]?.compactMap { $0 })
        #expect(posts.count == 2 && posts[0] != posts[1])
        #expect(posts.allSatisfy { UUID(uuidString: $0) != nil })
        #expect(sent[.patch]?.first??.isEmpty == false)
        for method in [HTTPMethod.get, .put, .delete, .options] { #expect(sent[method] == [nil]) }

        let plain = HTTPClient(baseURL: server.baseURL)
        #expect(try plain.send(echo(.post)).get(timeout: .seconds(30)).headers["idempotency-key"] == nil)
    }

    /// Asks for one more send after a 503: the interceptors' retry.
    struct RetriesOnce: HTTPInterceptor {
        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            Response(value: attempt == 1)
        }
    }

    @Test func everySendOfACallCarriesTheSameKey() throws {
        // The interceptors' retry.
        let retrying = HTTPClient(baseURL: server.baseURL, interceptors: [RetriesOnce()], idempotencyKeys: true)
        _ = try retrying.send(echo(.post, "flaky/1/echo")).get(timeout: .seconds(30))
        let interceptorSends = try keys(of: "/flaky/1/echo")
        #expect(interceptorSends.count == 2 && Set(interceptorSends).count == 1 && interceptorSends[0] != nil)

        // The policy's, after a connection closed unanswered (a transport failure).
        _ = keyed.send(echo(.post, "hangup"), retry: HTTPRetryPolicy(times: 2)).error
        let policySends = try keys(of: "/hangup")
        #expect(policySends.count == 3 && Set(policySends).count == 1 && policySends[0] != nil)
        #expect(policySends[0] != interceptorSends[0])
    }

    /// Puts a new key of its own on every send.
    struct KeyPerAdapt: HTTPInterceptor {
        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            var request = request
            request.setValue("adapt-\(UUID().uuidString)", forHTTPHeaderField: "Idempotency-Key")
            return Response(value: request)
        }

        func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
            Response(value: attempt == 1)
        }
    }

    @Test func aKeyTheRequestCarriesIsKeptAndReusedOnEverySend() throws {
        let own = try keyed.send(echo(.post, headers: ["Idempotency-Key": "mine"])).get(timeout: .seconds(30))
        #expect(own.headers["idempotency-key"] == "mine")

        let adapting = HTTPClient(baseURL: server.baseURL, interceptors: [KeyPerAdapt()], idempotencyKeys: true)
        _ = try adapting.send(echo(.post, "flaky/1/echo")).get(timeout: .seconds(30))
        let sent = try keys(of: "/flaky/1/echo")
        #expect(sent.count == 2 && Set(sent).count == 1 && sent[0]?.hasPrefix("adapt-") == true)
    }

    /// `POST /idempotent/notes?hangup=first` with `note`: stored, and the first of its key hung up on.
    func createHungUpOnFirst(_ note: Note) throws -> Endpoint<Note> {
        var create = try Endpoint<Note>.post("idempotent/notes", body: note, as: Note.self)
        create.query = [URLQueryItem(name: "hangup", value: "first")]
        return create
    }

    @Test func withKeysAPOSTIsSentAgainAfterATransportFailureAndCreatesOneRecord() throws {
        let note = Note(id: "n1", text: "once")
        // A fresh client: the first connection is new, so the library's policy, not libcurl, sends again.
        let created = try keyed.send(try createHungUpOnFirst(note), retry: HTTPRetryPolicy(times: 2))
            .get(timeout: .seconds(30))
        #expect(created == note)
        #expect(try keys(of: "/idempotent/notes").count == 2)
        #expect(Set(try keys(of: "/idempotent/notes")).count == 1)
        #expect(try keyed.send(.get("notes", as: [Note].self)).get(timeout: .seconds(30)) == [note])
    }

    @Test func withKeysAPOSTIsStillNeverSentAgainAfterAStatus() throws {
        let failing = echo(.post, "flaky/1/echo")
        let error = try #require(keyed.send(failing, retry: HTTPRetryPolicy(times: 3)).error as? HTTPError)
        #expect(error.status == 503)
        #expect(try keys(of: "/flaky/1/echo").count == 1)
    }

    // On Linux, libcurl sends a request again when the kept-alive connection it reused closes unanswered: the
    // resend of a POST arrives without its body. With a key, the server answers it with what the first one did.
    @Test func aPOSTOnAReusedConnectionClosedUnansweredCreatesOneRecord() throws {
        _ = try keyed.send(.get("echo", as: Echo.self)).get(timeout: .seconds(30))  // a connection to reuse
        let note = Note(id: "n1", text: "once")
        let call = keyed.send(try createHungUpOnFirst(note))
        let outcome = Result { try call.get(timeout: .seconds(30)) }
        let arrived = try keys(of: "/idempotent/notes")
        #expect(arrived.count >= 1 && Set(arrived).count == 1 && arrived[0] != nil)
        #if canImport(FoundationNetworking)
        #expect(arrived.count == 2)  // libcurl's resend, answered as the first was
        #expect(try outcome.get() == note)
        #endif
        #expect(try keyed.send(.get("notes", as: [Note].self)).get(timeout: .seconds(30)) == [note])
    }
}
#endif
