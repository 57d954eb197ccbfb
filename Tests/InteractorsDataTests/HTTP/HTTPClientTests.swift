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

/// The HTTP client against a real server on 127.0.0.1 that each test starts and stops.
@Suite(.onThreadsOfTheirOwn) struct HTTPClientTests {
    struct Echo: Decodable, Sendable {
        let method: String
        let path: String
        let query: [String: String]
        let headers: [String: String]
        let body: String
    }

    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL, headers: ["X-App": "tests", "X-Overridden": "client"])
    }

    @Test func jsonEndpointsRoundTrip() throws {
        let stored = try client.send(.put("notes/ada", body: ada, as: Note.self)).get()
        #expect(stored == Note(id: "ada", text: ada.text, revision: 1))
        let created = try client.send(.post("notes", body: grace, as: Note.self)).get()
        #expect(created == grace)
        #expect(try client.send(.get("notes", as: [Note].self)).get() == [stored, grace])
        try client.send(.delete("notes/ada")).get()
        #expect(try client.send(.get("notes", as: [Note].self)).get() == [grace])
    }

    @Test func theRequestCarriesPathQueryHeadersAndBody() throws {
        let endpoint = Endpoint<Echo>(
            method: .patch,
            path: "echo/a b",
            query: [URLQueryItem(name: "page", value: "2")],
            headers: ["X-Overridden": "endpoint"],
            body: Data("hello".utf8)
        ) { data, _ in try JSONDecoder().decode(Echo.self, from: data) }
        let echo = try client.send(endpoint).get()
        #expect(echo.method == "PATCH")
        #expect(echo.path == "/echo/a%20b")
        #expect(echo.query == ["page": "2"])
        #expect(echo.headers["x-app"] == "tests")
        #expect(echo.headers["x-overridden"] == "endpoint")
        #expect(echo.body == "hello")
    }

    @Test func pathsAreAppendedToABaseURLThatHasAPathOfItsOwn() throws {
        let nested = HTTPClient(baseURL: server.baseURL.appendingPathComponent("echo/v1"))
        #expect(try nested.send(.get("notes/ada", as: Echo.self)).get().path == "/echo/v1/notes/ada")
        let request = nested.request(for: Endpoint<Void>.delete("notes/ada"))
        #expect(request.httpMethod == "DELETE")
        #expect(request.url == server.baseURL.appendingPathComponent("echo/v1/notes/ada"))
    }

    @Test func aBodyThatCannotBeEncodedIsAMappingFailureBeforeAnyRequest() throws {
        struct Unencodable: Encodable {
            struct Refused: Error {}
            func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        let error = try #require(throws: DataError.self) { try Endpoint<Echo>.put("echo", body: Unencodable()) }
        #expect(error.code == .mappingFailed)
        #expect(error.underlying is Unencodable.Refused)
    }

    @Test func jsonHelpersSendContentTypeJSON() throws {
        let echo = try client.send(.put("echo", body: ["key": "value"], as: Echo.self)).get()
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.body == #"{"key":"value"}"#)
        #expect(
            try client.send(.post("echo", body: [1], as: Echo.self)).get().headers["content-type"] == "application/json"
        )
    }

    @Test func aStatusOutside2xxFailsWithHTTPErrorCarryingTheBody() throws {
        let error = try #require(client.send(.get("status/500", as: Note.self)).error as? HTTPError)
        #expect(error.status == 500)
        #expect(error.bodyText == "server says 500")
        #expect((client.send(.delete("gone/x")).error as? HTTPError)?.status == 404)
    }

    @Test func anUndecodableBodyFailsWithMappingFailedCarryingTheBodyText() throws {
        let error = try #require(client.send(.get("malformed", as: Note.self)).dataError)
        #expect(error.code == .mappingFailed)
        #expect(error.message.contains(#"{"id": "broken", "text": "#))
        #expect(error.underlying is DecodingError)
    }

    @Test func cancellingASlowRequestClosesItsConnection() throws {
        let response = client.send(.get("slow", as: Note.self))
        #expect(server.waitFor("slow started"))
        response.cancel()
        #expect(server.waitFor("slow closed"))
        #expect(response.isCancelled)
    }

    @Test func aServerThatIsDownGivesTheTransportErrorFast() throws {
        server.stop()
        let response = client.send(.get("notes", as: [Note].self))
        #expect(throws: URLError.self) { try response.get(timeout: .seconds(10)) }
    }

    @Test func threeThousandRapidCancellationsNeverCrash() throws {
        for _ in 0..<3_000 {
            client.send(.get("notes", as: [Note].self)).cancel()
        }
        #expect(try client.send(.get("notes", as: [Note].self)).get().isEmpty)
    }

    @Test func manyThreadsCanSendAtOnce() throws {
        let failures = LockedBox(0)
        onThreads(8) { thread in
            for index in 0..<10 {
                let note = Note(id: "\(thread)-\(index)", text: "t")
                if (try? client.send(.put("notes/\(note.id)", body: note, as: Note.self)).get()) == nil {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try client.send(.get("notes", as: [Note].self)).get().count == 80)
    }

    @Test func anEndpointsHeaderReplacesTheClientsWhateverItsCase() throws {
        let names = (0..<20).map { "X-Header-\($0)" }
        let client = HTTPClient(
            baseURL: server.baseURL,
            headers: Dictionary(uniqueKeysWithValues: names.map { ($0, "client") } + [("Authorization", "client")])
        )
        let endpoint = Endpoint<Echo>(
            method: .get,
            path: "echo",
            headers: Dictionary(
                uniqueKeysWithValues: names.map { ($0.lowercased(), "endpoint") } + [("authorization", "endpoint")]
            )
        ) { data, _ in try JSONDecoder().decode(Echo.self, from: data) }
        for _ in 0..<3 {
            let echo = try client.send(endpoint).get()
            #expect(echo.headers["authorization"] == "endpoint")
            #expect(names.allSatisfy { echo.headers[$0.lowercased()] == "endpoint" })
        }
        for request in try server.received() {
            #expect(request.headerNames.filter { $0.lowercased() == "authorization" }.count == 1)
        }
    }

    @Test func anHTTPErrorCarriesTheAnswersHeadersLookedUpWithoutCase() throws {
        let error = try #require(client.send(.get("status/429", as: Note.self)).error as? HTTPError)
        #expect(error.headers["retry-after"] == "7")
        #expect(error.headers["RETRY-AFTER"] == "7")
        #expect(error.headers["Content-Type"] == "text/plain")
        #expect(error.headers["x-missing"] == nil)
        let rest = RESTDataSource<Note>(client: client, path: "status")
        let throughREST = try #require(rest.get(IdQuery("503")).error as? HTTPError)
        #expect(throughREST.status == 503)
        #expect(throughREST.headers["retry-after"] == "7")
    }

    @Test func messagesQuoteAtMostTheFirstKilobyteOfABody() throws {
        let error = try #require(client.send(.get("big/51200", as: Note.self)).error as? HTTPError)
        #expect(error.body.count == 51_200)
        #expect(error.description.utf8.count < 1_200)
        #expect(error.description.contains("… (51200 bytes) (the server could not answer it now"))
        #expect(!error.description.contains("Retry-After"))
        let undecodable = try #require(
            client.send(.get("big/51200", query: [URLQueryItem(name: "status", value: "200")], as: Note.self)).dataError
        )
        #expect(undecodable.code == .mappingFailed)
        #expect(undecodable.message.utf8.count < 1_300)
        #expect(undecodable.message.hasSuffix("… (51200 bytes)"))
        let short = try #require(client.send(.get("status/500", as: Note.self)).error as? HTTPError)
        #expect(
            short.description == "HTTPError(500) GET \(server.baseURL)/status/500: server says 500"
                + DataErrorTests.retryLater
        )
    }

    @Test func anHTTPErrorNamesTheRequestWithItsQueryValuesHidden() throws {
        let failing = Endpoint<Echo>.get(
            "status/503",
            query: [URLQueryItem(name: "token", value: "s3cret"), URLQueryItem(name: "page", value: "2")],
            as: Echo.self
        )
        let error = try #require(client.send(failing).error as? HTTPError)
        #expect(error.method == "GET")
        #expect(error.url?.query == "token=s3cret&page=2")  // the whole URL stays in the error
        #expect(
            error.description
                == "HTTPError(503) GET \(server.baseURL)/status/503?token=…&page=…: server says 503"
                + DataErrorTests.retryLater
        )
        #expect(error.localizedDescription == error.description)
        #expect(try server.requestLines() == ["GET /status/503?token=s3cret&page=2"])
    }

    @Test func aDataErrorQuotesAURLWithItsQueryValuesHidden() throws {
        let undecodable = Endpoint<Note>.get(
            "undecodable",
            query: [URLQueryItem(name: "api_key", value: "s3cret"), URLQueryItem(name: "flag", value: nil)],
            as: Note.self
        )
        let error = try #require(client.send(undecodable).dataError)
        #expect(error.message.contains("GET \(server.baseURL)/undecodable?api_key=…&flag as Note"))
        #expect(!error.description.contains("s3cret"))
        #expect(error.localizedDescription == error.description)
        let keyed = HTTPClient(baseURL: URL(string: "http://user:pw@127.0.0.1:1/v1?key=s3cret")!)
        let unsupported = try #require(
            RESTDataSource<Note>(client: keyed, path: "notes").get(TextSearchQuery(term: "a")).dataError
        )
        #expect(unsupported.message.contains("at http://127.0.0.1:1/v1/notes?key=…"))
        #expect(!unsupported.description.contains("s3cret") && !unsupported.description.contains("pw"))
    }

    @Test func anHTTPErrorSaysWhatToDoWhereSomethingCanBeDone() throws {
        for status in [408, 429, 500, 502, 503, 504] {
            let error = try #require(client.send(.get("status/\(status)", as: Note.self)).error as? HTTPError)
            #expect(error.description.hasSuffix(DataErrorTests.retryLater), "\(status)")
        }
        let refused = try #require(client.send(.get("challenge/Basic", as: Note.self)).error as? HTTPError)
        #expect(
            refused.description.hasSuffix("(a TokenRefreshInterceptor refreshes a token and sends the request again))")
        )
        #expect(HTTPError(status: 403).description.contains("do not allow this request"))
        #expect(HTTPError(status: 407).description.contains("the proxy refused the credentials"))
        for status in [400, 404, 409, 422, 501] {
            #expect(HTTPError(status: status, body: Data("b".utf8)).description == "HTTPError(\(status)): b")
        }
    }

    @Test func aDecodingEndpointGivenAnEmptyBodyFailsSayingSo() throws {
        for path in ["empty", "status/204"] {
            let error = try #require(client.send(.get(path, as: Note.self)).dataError)
            #expect(error.code == .mappingFailed)
            #expect(error.message.contains("the body was empty"))
        }
    }

    @Test func voidJSONHelpersSucceedOnAny2xxWhateverTheBody() throws {
        try client.send(try .put("echo", body: ada)).get()
        try client.send(try .post("status/201", body: ada)).get()
        try client.send(try .put("status/204", body: ada)).get()
        #expect((client.send(try .post("status/500", body: ada)).error as? HTTPError)?.status == 500)
        let sent = try server.received()
        #expect(sent.map(\.method) == ["PUT", "POST", "PUT", "POST"])
        #expect(sent.allSatisfy { $0.headers["content-type"] == "application/json" && $0.body.contains("ada") })
    }

    @Test func aSlowDecodeDoesNotHoldUpOtherRequests() throws {
        let decoding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let slow = Endpoint<Int>(method: .get, path: "echo/slow") { _, _ in
            decoding.signal()
            _ = release.wait(timeout: .now() + 60)
            return 1
        }
        let slowResponse = client.send(slow)
        try #require(decoding.wait(timeout: .now() + 30) == .success)
        for index in 0..<3 {
            let echo = try client.send(.get("echo/\(index)", as: Echo.self)).get(timeout: .seconds(20))
            #expect(echo.path == "/echo/\(index)")
        }
        #expect(!slowResponse.isDone)
        release.signal()
        #expect(try slowResponse.get() == 1)
    }

    @Test func aPerRequestTimeoutFailsWithTimedOut() throws {
        var endpoint = Endpoint<Note>.get("slow", as: Note.self)
        endpoint.timeout = .milliseconds(300)  // rounded up to one second
        #expect(endpoint.timeout == .milliseconds(300))
        #expect(client.request(for: endpoint).timeoutInterval == 1)
        let error = try #require(client.send(endpoint).error as? URLError)
        #expect(error.code == .timedOut)
        #expect(Endpoint<Note>.get("notes", as: Note.self).timeout == nil)
        let fromInit = Endpoint<Void>(method: .get, path: "x", timeout: .seconds(2.5)) { _, _ in }
        #expect(client.request(for: fromInit).timeoutInterval == 3)
    }

    @Test func theURLSessionBridgeAnswersWhateverTheStatus() throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: server.baseURL.appendingPathComponent("status/404"))
        let (data, response) = try session.response(for: request).get()
        #expect(response.statusCode == 404)
        #expect(String(decoding: data, as: UTF8.self) == "server says 404")
    }
}
#endif
