// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsTestKit
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reproductions of "Data you can trust", shaped as a user's offline-first book list hits them: a REST server
/// on 127.0.0.1 holding books a, b and c, a `CacheRepository` over it with a `FileDataSource` cache, the
/// defaults everywhere. Written with the API the defects were found with, so they ran (and failed) before.
@Suite(.onThreadsOfTheirOwn) struct OfflineFirstBookListTests {
    let server: RESTServer
    let directory: TemporaryDirectory
    let cacheURL: URL
    let client: HTTPClient
    let books: CacheRepository<Note>
    /// Another client of the same server: another phone, the web app.
    let elsewhere: RESTDataSource<Note>

    let a = Note(id: "a", text: "Dune")
    let b = Note(id: "b", text: "Emma")
    let c = Note(id: "c", text: "Ulysses")

    init() async throws {
        server = try await RESTServer.start()
        directory = try TemporaryDirectory()
        cacheURL = directory.file("books.json")
        client = HTTPClient(baseURL: server.baseURL)
        books = CacheRepository(
            main: RESTDataSource<Note>(client: client, path: "books"),
            cache: FileDataSource<Note>(fileURL: cacheURL)
        )
        elsewhere = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books")
        _ = try await elsewhere.putAll([a, b, c]).value
    }

    /// What the server stored, as another client reads it.
    func onTheServer() throws -> [String] {
        try elsewhere.getAll(AllObjectsQuery()).get().map(\.id)
    }

    /// The request lines the server received since the books were seeded.
    func sentByTheApp() throws -> [String] {
        try server.requestLines().dropFirst(3).map { $0 }
    }

    // MARK: 1. An id reaches another URL

    @Test func anIdNeverReachesAnotherURL() throws {
        let remote = RESTDataSource<Note>(client: client, path: "books")
        _ = remote.delete(IdQuery("../admin/users")).error
        _ = remote.put(Note(id: "../admin/users", text: "x")).error
        _ = remote.get(IdQuery("a/b")).error
        for id in ["", ".", ".."] {
            _ = remote.get(IdQuery(id)).error
            _ = remote.delete(IdQuery(id)).error
        }
        for id in ["x:y@z", "a;b=c&d", "it's(1)*!$,"] { _ = remote.get(IdQuery(id)).error }
        #expect(
            try sentByTheApp() == [
                "DELETE /books/..%2Fadmin%2Fusers", "PUT /books/..%2Fadmin%2Fusers", "GET /books/a%2Fb",
                "GET /books/x%3Ay%40z", "GET /books/a%3Bb%3Dc%26d", "GET /books/it%27s%281%29%2A%21%24%2C",
            ]
        )
    }

    // MARK: 2. One book of three

    @Test func openingOneBookThenTheListShowsEveryBook() throws {
        _ = try books.get(IdQuery("a")).get()
        #expect(try books.getAll(AllObjectsQuery()).get().map(\.id) == ["a", "b", "c"])
        #expect(try books.getAll(IdsQuery(["a", "b", "c"])).get().map(\.id) == ["a", "b", "c"])
        #expect(try sentByTheApp().contains("GET /books"))
    }

    // MARK: 3. Deleted books kept, and undeletable

    @Test func aBookDeletedOnTheServerLeavesTheListAndStaysDeletable() throws {
        _ = try books.getAll(AllObjectsQuery(), operation: .mainSync).get()
        try elsewhere.delete(IdQuery("b")).get()
        #expect(try books.getAll(AllObjectsQuery(), operation: .mainSync).get().map(\.id) == ["a", "c"])
        #expect(try books.getAll(AllObjectsQuery()).get().map(\.id) == ["a", "c"])

        try elsewhere.delete(IdQuery("a")).get()
        #expect((books.get(IdQuery("a"), operation: .mainSync).error as? DataError)?.code == .notFound)
        #expect((books.get(IdQuery("a")).error as? DataError)?.code == .notFound)
        try books.delete(IdQuery("a")).get()
        #expect(try books.getAll(AllObjectsQuery()).get().map(\.id) == ["c"])
        #expect(try FileDataSource<Note>(fileURL: cacheURL).getAll(AllObjectsQuery()).get().map(\.id) == ["c"])
    }

    // MARK: 4. A corrupt cache, and fallbacks that hide the server's answer

    @Test func aCorruptCacheNeverHidesTheServer() throws {
        try Data("{ \"truncated".utf8).write(to: cacheURL)
        let d = Note(id: "d", text: "Middlemarch")
        let (answers, diagnostics) = try withCapturedDiagnostics { () throws in
            (
                try books.get(IdQuery("a"), operation: .mainSync).get(),
                try books.getAll(AllObjectsQuery()).get().map(\.id),
                try books.put(d).get().id
            )
        }
        #expect(answers.0 == Note(id: "a", text: "Dune", revision: 1))
        #expect(answers.1 == ["a", "b", "c"])
        #expect(answers.2 == "d")
        #expect(try sentByTheApp().filter { $0 == "PUT /books/d" }.count == 1)  // sent once: never added twice
        #expect(try onTheServer() == ["a", "b", "c", "d"])
        // The cache's failure is reported, once per operation, and the server's answers stand.
        let reports = diagnostics.filter { $0.contains("CacheRepository<Note>: the cache failed") }
        #expect(reports.count == 3)
        // Named by its file name; the full path is not in the message (it is the error's `fileURL`).
        #expect(reports.allSatisfy { $0.contains("corruptStore") && $0.contains(cacheURL.lastPathComponent) })
        #expect(!reports.contains { $0.contains(cacheURL.deletingLastPathComponent().path) })
    }

    @Test func anAnswerFromTheServerIsNeverReplacedByTheStaleCache() throws {
        for (path, id) in [("status", "401"), ("status", "403"), ("status", "410"), ("undecodable", "x")] {
            let cache = FileDataSource<Note>(fileURL: directory.file("\(path)-\(id).json"))
            _ = try cache.put(Note(id: id, text: "stale")).get()
            let repository = CacheRepository(main: RESTDataSource<Note>(client: client, path: path), cache: cache)
            let answer = repository.get(IdQuery(id), operation: .mainSync)
            #expect(answer.error != nil, "\(path)/\(id) answered \(String(describing: try? answer.get()))")
        }
    }

    // MARK: 5. Lost writes (the file store's own tests: FileDataSourceSharingTests)

    /// 300 puts through each cache (75 under a sanitizer, see `volume`).
    @Test func twoCachesOnOneFileLoseNoAcknowledgedPut() throws {
        let puts = volume(300, underASanitizer: 75)
        let sources = [FileDataSource<Note>(fileURL: cacheURL), FileDataSource<Note>(fileURL: cacheURL)]
        let acknowledged = LockedBox(0)
        onThreads(2) { index in
            for number in 0..<puts
            where (try? sources[index].put(Note(id: "\(index)-\(number)", text: "t")).get()) != nil {
                acknowledged.withLock { $0 += 1 }
            }
        }
        #expect(acknowledged.withLock { $0 } == 2 * puts)
        #expect(try FileDataSource<Note>(fileURL: cacheURL).getAll(AllObjectsQuery()).get().count == 2 * puts)
    }

    // MARK: 6. HTTP

    @Test func everyRequestCarriesWhatItSays() throws {
        struct Echo: Decodable, Sendable {
            let method: String
            let query: [String: String]
            let headers: [String: String]
            let body: String
        }
        let echo = { (endpoint: Endpoint<Echo>) in try client.send(endpoint).get() }
        let decode: @Sendable (Data, HTTPURLResponse) throws -> Echo = { data, _ in
            try JSONDecoder().decode(Echo.self, from: data)
        }
        #expect(
            try echo(
                Endpoint(method: .get, path: "echo", query: [URLQueryItem(name: "q", value: "a+b")], decode: decode)
            )
            .query["q"] == "a+b"
        )
        let redirect = { (status: Int, method: HTTPMethod, to: String) in
            Endpoint<Echo>(
                method: method,
                path: "redirect/\(status)",
                query: [URLQueryItem(name: "to", value: to)],
                headers: ["Content-Type": "text/plain"],
                body: Data("the body".utf8),
                decode: decode
            )
        }
        let posted = try echo(redirect(307, .post, "/echo"))
        #expect(posted.method == "POST" && posted.body == "the body")
        #expect(try echo(redirect(303, .put, "/echo")).method == "GET")
        let elsewhere = server.baseURL.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let authorized = HTTPClient(baseURL: server.baseURL, headers: ["Authorization": "Bearer secret"])
        #expect(try authorized.send(redirect(307, .post, "\(elsewhere)/echo")).get().headers["authorization"] == nil)

        let before = try server.requestLines().count
        _ = client.send(Endpoint<Echo>(method: .get, path: "loop/0", decode: decode)).error
        #expect(try server.requestLines().count - before == 11)

        let own = HTTPClient(baseURL: server.baseURL, headers: ["Accept": "text/plain", "X-Trace": "client"])
        for _ in 0..<5 {
            let endpoint = Endpoint<Echo>(
                method: .get,
                path: "echo",
                headers: ["accept": "application/json", "x-trace": "endpoint"],
                decode: decode
            )
            let headers = try own.send(endpoint).get().headers
            #expect(headers["accept"] == "application/json" && headers["x-trace"] == "endpoint")
        }

        let error = try #require(
            client.send(Endpoint<Echo>(method: .get, path: "big/51200", decode: decode)).error as? HTTPError
        )
        #expect(error.description.utf8.count < 1_200)  // a kilobyte of the body, and what to do
    }
}
#endif
