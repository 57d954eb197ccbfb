// Part of the data tour, which starts a local server in a child process: macOS and Linux only.
#if os(macOS) || os(Linux)
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 4d. Serve many clients, as a server's data layer must: sixteen identical cold reads send one request, a slow
/// server is answered for by the cache after a deadline while the read goes on, a create-only put refuses a taken
/// id, a delete says whether the value was there, and a long list comes a page at a time.
func serveManyClients(_ server: LocalServer, _ remote: RESTDataSource<Note>) throws {
    // One main-source read for many identical misses: the sixteen callers share it, each with its own answer.
    let counted = CountingReads(remote)
    let shelf = CacheRepository(main: counted, cache: InMemoryDataSource<Note>())
    let reads = (0..<16).map { _ in shelf.getAll(AllObjectsQuery(), operation: .mainSync) }
    let answers = try reads.map { try $0.get() }
    print("16 identical reads at once: \(answers.count) answers, \(counted.reads) request to the server")

    // An answer by a deadline: the server takes 300 ms, the repository answers from the cache after 50 ms, and
    // keeps the server's answer in the cache when it comes.
    let slow = CacheRepository(
        main: CountingReads(remote, delay: .milliseconds(300)),
        cache: InMemoryDataSource<Note>(),
        answerFromCacheAfter: .milliseconds(50)
    )
    _ = try slow.fetchAll(AllObjectsQuery(), operation: .mainSync).get()  // cold: waits for the server
    let early = try slow.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
    print("a slow server: answered after 50 ms from the cache, origin \(early.origin) (\(early.value.count) notes)")

    // A create-only put: a PUT with If-None-Match: *, which the server refuses with 412 for a taken id.
    let notes = SingleSourceRepository(remote)
    _ = try notes.put(Note(id: "jam", text: "Buy jam"), ifAbsent: true).get()
    let taken = (notes.put(Note(id: "jam", text: "Someone else's jam"), ifAbsent: true).error as? DataError)?.code
    // A delete that says whether the value was there: a 404 is notFound.
    try notes.delete(IdQuery("jam"), ifPresent: true).get()
    let gone = (notes.delete(IdQuery("jam"), ifPresent: true).error as? DataError)?.code
    print(
        "create-only put of a taken id: \(taken.map { "\($0)" } ?? "stored"); a second delete: \(gone.map { "\($0)" } ?? "deleted")"
    )

    // Pages: GET notes?limit=2&after=..., in ascending id order.
    var after: String? = nil
    var pages: [[String]] = []
    repeat {
        let page = try remote.getAll(PageQuery(limit: 2, after: after)).get()
        if page.isEmpty { break }
        pages.append(page.map(\.id))
        after = page.last?.id
    } while pages.count < 10
    print("the list a page of 2 at a time: \(pages)")
}

/// 8. The library's diagnostics go where the app says, as a server sends them to its `Logger`: here a row the
/// model no longer reads, skipped and reported.
func routeDiagnostics() throws {
    Diagnostics.setHandler { diagnostic in print("  [\(diagnostic.product)] \(diagnostic.message)") }
    defer { Diagnostics.setHandler(Diagnostics.standardError) }
    let database = try SQLiteDatabase.inMemory()
    _ = try SQLiteDataSource<Note>(database: database, table: "notes").put(Note(id: "n1", text: "Old shape")).get()
    print("diagnostics routed by Diagnostics.setHandler; a model that changed reads the table:")
    let cards = try SQLiteDataSource<Card>(database: database, table: "notes", undecodableRows: .skip)
    print("  \(try cards.getAll(AllObjectsQuery()).get().count) cards read, the old row skipped")
}

/// A model that no longer matches the rows `Note` wrote.
private struct Card: Codable, Identifiable, Sendable {
    var id: String
    var title: String
}

/// A main source that counts its `getAll`s and may answer them late: what a slow or busy server looks like.
private final class CountingReads: DataSource, Sendable {
    typealias Value = Note

    private let base: RESTDataSource<Note>
    private let delay: Duration
    private let count = LockedBox(0)

    init(_ base: RESTDataSource<Note>, delay: Duration = .zero) {
        self.base = base
        self.delay = delay
    }

    var reads: Int { count.withLock { $0 } }

    func getAll(_ query: any Query) -> Response<[Note]> {
        count.withLock { $0 += 1 }
        guard delay > .zero else { return base.getAll(query) }
        return Response(value: ()).delay(by: delay).flatMap { [base] in base.getAll(query) }
    }

    func get(_ query: any Query) -> Response<Note> { base.get(query) }
    func put(_ value: Note) -> Response<Note> { base.put(value) }
    func putAll(_ values: [Note]) -> Response<[Note]> { base.putAll(values) }
    func delete(_ query: any Query) -> Response<Void> { base.delete(query) }
    func deleteAll(_ query: any Query) -> Response<Void> { base.deleteAll(query) }
}
#endif
