// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every request goes where it says: ids are one path segment each, query items arrive as they were given. What
/// the server received is read back from its recording of the wire.
@Suite struct RequestURLTests {
    let server: RESTServer
    let client: HTTPClient
    let books: RESTDataSource<Note>

    init() throws {
        server = try RESTServer()
        client = HTTPClient(baseURL: server.baseURL)
        books = RESTDataSource<Note>(client: client, path: "books")
    }

    @Test func anIdThatLooksLikeAPathStaysOneSegmentForEveryMethod() throws {
        let id = "../admin/users"
        _ = books.get(IdQuery(id)).error
        _ = books.getAll(IdsQuery([id])).error
        _ = try books.put(Note(id: id, text: "t")).get()
        _ = try books.delete(IdQuery(id)).get()
        #expect(
            try server.requestLines() == [
                "GET /books/..%2Fadmin%2Fusers", "GET /books/..%2Fadmin%2Fusers",
                "PUT /books/..%2Fadmin%2Fusers", "DELETE /books/..%2Fadmin%2Fusers",
            ]
        )
    }

    @Test(arguments: [
        ("a/b", "a%2Fb"), ("a b+c", "a%20b%2Bc"), ("x:y@z", "x%3Ay%40z"), ("a;b=c&d", "a%3Bb%3Dc%26d"),
        ("it's(1)*!$,", "it%27s%281%29%2A%21%24%2C"), ("100%", "100%25"), ("?#", "%3F%23"), ("~._-", "~._-"),
        ("é", "%C3%A9"),
    ])
    func everythingOutsideTheUnreservedSetIsEncoded(id: String, onTheWire: String) throws {
        let stored = try books.put(Note(id: id, text: "t")).get()
        #expect(stored.id == id)
        #expect(try books.get(IdQuery(id)).get().id == id)  // the server decoded the segment back to the id
        try books.delete(IdQuery(id)).get()
        #expect(try server.requestLines() == ["PUT", "GET", "DELETE"].map { "\($0) /books/\(onTheWire)" })
    }

    @Test(arguments: ["", ".", ".."])
    func anIdThatWouldNameAnotherResourceFailsEveryMethodWithoutARequest(id: String) throws {
        let failures: [DataError?] = [
            books.get(IdQuery(id)).dataError,
            books.getAll(IdQuery(id)).dataError,
            books.getAll(IdsQuery(["fine", id])).dataError,
            books.put(Note(id: id, text: "t")).dataError,
            books.putAll([Note(id: "fine", text: "t"), Note(id: id, text: "t")]).dataError,
            books.delete(IdQuery(id)).dataError,
            books.deleteAll(IdQuery(id)).dataError,
            books.deleteAll(IdsQuery(["fine", id])).dataError,
        ]
        for failure in failures {
            #expect(failure?.code == .invalidQuery)
        }
        #expect(try server.requestLines() == [])
    }

    @Test func anEndpointWithAnUnsafeSegmentIsRefusedBeforeSending() throws {
        for segment in ["", ".", ".."] {
            let endpoint = Endpoint<Void>(method: .delete, pathSegments: ["books", segment]) { _, _ in }
            #expect(client.send(endpoint).dataError?.code == .invalidQuery)
        }
        #expect(try server.requestLines() == [])
    }

    @Test func aCollectionPathWithSeveralSegmentsKeepsThem() throws {
        let nested = RESTDataSource<Note>(client: client, path: "echo/books/")
        _ = nested.put(Note(id: "a/b", text: "t")).error  // the echo is no note; what was sent is what counts
        _ = nested.getAll(AllObjectsQuery()).error
        #expect(try server.requestLines() == ["PUT /echo/books/a%2Fb", "GET /echo/books"])
    }

    @Test func aHandWrittenPathKeepsItsSlashesAndEncodesWhatAPathCannotHold() throws {
        try client.send(.delete("echo/a b/100%/x?y")).get()
        #expect(try server.requestLines() == ["DELETE /echo/a%20b/100%25/x%3Fy"])
    }

    @Test func queryItemsArriveAsTheyWereGiven() throws {
        let items = [
            URLQueryItem(name: "q", value: "a+b"), URLQueryItem(name: "and", value: "x&y=z"),
            URLQueryItem(name: "pct", value: "100%"), URLQueryItem(name: "hash", value: "#1"),
            URLQueryItem(name: "space key", value: "two words"), URLQueryItem(name: "a+b=c", value: "d"),
        ]
        let echo = try client.send(.get("echo", query: items, as: HTTPClientTests.Echo.self)).get()
        #expect(echo.query["q"] == "a+b")
        #expect(echo.query["and"] == "x&y=z")
        #expect(echo.query["pct"] == "100%")
        #expect(echo.query["hash"] == "#1")
        #expect(echo.query["space key"] == "two words")
        #expect(echo.query["a+b=c"] == "d")
        let wire = try #require(try server.received().first)
        #expect(wire.query.contains("q=a%2Bb"))
    }

    @Test func deleteTakesQueryItemsToo() throws {
        try client.send(.delete("echo", query: [URLQueryItem(name: "force", value: "yes please")])).get()
        #expect(try server.requestLines() == ["DELETE /echo?force=yes%20please"])
    }

    @Test func aBaseURLWithAQueryKeepsItAndGainsTheEndpoints() throws {
        let keyed = HTTPClient(baseURL: try #require(URL(string: "\(server.baseURL)/echo?key=k1")))
        let echo = try keyed.send(
            .get("", query: [URLQueryItem(name: "page", value: "2")], as: HTTPClientTests.Echo.self)
        )
        .get()
        #expect(echo.query == ["key": "k1", "page": "2"])
    }
}
#endif
