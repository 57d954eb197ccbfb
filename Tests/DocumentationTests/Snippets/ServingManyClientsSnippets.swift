import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

// The code blocks of FromInteractorToDataSource.md's sections on serving many clients, create-only puts, pages and
// errors safe to show, with the stand-ins they need. The upstream is api.example.com, so the blocks that reach it
// are compiled, not run; the others run against in-memory sources.

@Suite struct ServingManyClientsSnippets {
    struct Quote: Codable, Identifiable, Sendable {
        var id: String
        var text: String
    }

    struct Book: Codable, Identifiable, Sendable {
        var id: String
        var title: String
    }

    struct Link: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var target: URL
    }

    let upstream = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!)

    func markStale(since: Date?) {}
    func makeAnotherSlug() -> String { "x" + UUID().uuidString.prefix(6).lowercased() }
    func log(_ line: String) {}

    // MARK: Serve many clients: compiled (it talks to api.example.com)

    func serveManyClients() throws {
        let database = try SQLiteDatabase.inMemory()

        let quotes = CacheRepository(
            main: RESTDataSource<Quote>(client: upstream, path: "quotes", retry: HTTPRetryPolicy(times: 3)),
            cache: try SQLiteDataSource<Quote>(database: database, table: "quotes"),
            answerFromCacheAfter: .milliseconds(300)
        )
        let answer = try quotes.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        if case .cacheWhileRefreshing = answer.origin { markStale(since: answer.storedAt) }
    }

    @Test func aCancelledDeleteAllSaysWhatHappened() throws {
        let books = try SQLiteDataSource<Book>(database: SQLiteDatabase.inMemory(), table: "books")
        _ = try books.putAll([Book(id: "b1", title: "Dune")]).get()
        let executor = InteractorExecutor()
        executor.register(
            DeleteAllInteractor(repository: SingleSourceRepository(books), queue: DispatchQueue(label: "d"))
        )

        let deletion = executor.execute(DeleteAllRequest<Book>(AllObjectsQuery()))
        deletion.cancel()  // the client went away
        do {
            try deletion.get()  // it had begun: the books are gone
        } catch is CancellationError {
            // withdrawn before it began: nothing was deleted
        }

        let left = try books.getAll(AllObjectsQuery()).get().count
        #expect(deletion.isCancelled ? left == 1 : left == 0)
    }

    /// Creates a link under `slug` (another slug if it is taken), then deletes it again.
    func createThenDelete(_ links: InMemoryDataSource<Link>, slug: String, target: URL) throws {
        var slug = slug

        do {
            _ = try links.put(Link(id: slug, target: target), ifAbsent: true).get()
        } catch let error as DataError where error.code == .conflict {
            slug = makeAnotherSlug()  // the id was taken, and nothing was replaced
        }
        try links.delete(IdQuery(slug), ifPresent: true).get()  // notFound if it was not there
    }

    @Test func aCreateOnlyPutAndADeleteIfPresent() throws {
        let links = InMemoryDataSource<Link>()
        let target = URL(string: "https://example.com/dune")!
        try createThenDelete(links, slug: "dune", target: target)  // created, then deleted
        let taken = Link(id: "dune", target: URL(string: "https://example.com/other")!)
        _ = try links.put(taken).get()
        // Taken: nothing replaced, and the other slug was never created, so deleting it says notFound.
        #expect(throws: DataError.self) { try createThenDelete(links, slug: "dune", target: target) }
        #expect(try links.get(IdQuery("dune")).get() == taken)
    }

    @Test func pages() throws {
        let books = InMemoryDataSource<Book>()
        _ = try books.putAll((0..<120).map { Book(id: String(format: "b%03d", $0), title: "\($0)") }).get()

        let first = try books.getAll(PageQuery<String>(limit: 50)).get()
        let next = try books.getAll(PageQuery(limit: 50, after: first.last?.id)).get()  // [] after the last page

        #expect(first.first?.id == "b000" && next.first?.id == "b050")
    }

    // MARK: HostingTheRegistry.md, answering a data layer's failures

    /// The status and message a server answers for a failure of the data layer.
    func httpAnswer(for error: any Error) -> (status: Int, message: String) {
        guard let error = error as? DataError else { return (500, DataError.describe(error)) }
        switch error.code {
        case .notFound: return (404, error.message)
        case .conflict: return (412, error.message)  // a create-only PUT (If-None-Match: *); 409 on other routes
        case .invalidQuery, .queryNotSupported: return (400, error.message)
        case .storageFailed, .corruptStore: return (503, error.message)  // try again later
        default: return (500, error.message)
        }
    }

    @Test func aDataLayersFailuresAnswerTheirStatuses() {
        let links = InMemoryDataSource<Link>()
        #expect(httpAnswer(for: links.get(IdQuery("nobody")).error!).status == 404)
        #expect(httpAnswer(for: URLError(.timedOut)) == (500, "URLError.timedOut"))
    }

    @Test func errorsSafeToShow() {
        func message(for error: any Error) -> String {
            if let error = error as? DataError, let file = error.fileURL { log("\(error) in \(file.path)") }
            return DataError.describe(error)  // safe to return to the client
        }

        #expect(message(for: URLError(.timedOut)) == "URLError.timedOut")
    }
}
