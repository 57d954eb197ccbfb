// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Foundation
import Interactors
import InteractorsData
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client against a real server on 127.0.0.1 that each test starts and stops.
@Suite struct HTTPClientTests {
    struct Echo: Decodable, Sendable {
        let method: String
        let path: String
        let query: [String: String]
        let headers: [String: String]
        let body: String
    }

    let server: RESTServer
    let client: HTTPClient

    init() throws {
        server = try RESTServer()
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
