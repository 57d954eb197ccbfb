// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// "A read never undoes a write made after it was sent", as an offline-first reading list hits it: the server holds
/// books b1 to b5 and holds back its answer to a pull-to-refresh while the user adds a book and deletes another,
/// through the same repository or from another process on the same cache. Over every cache that keeps its index:
/// in memory, a file, a SQLite file, a SQLite database in memory.
@Suite(.onThreadsOfTheirOwn) struct LocalEditsDuringARefreshTests {
    let server: RESTServer
    let remote: RESTDataSource<Note>
    let shelf = (1...5).map { Note(id: "b\($0)", text: "Book \($0)") }

    init() async throws {
        server = try await RESTServer.start()
        remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books")
        _ = try await remote.putAll(shelf).value
    }

    /// Starts a refresh of everything that the server holds back, and waits until the server has taken its
    /// snapshot: b1 to b5. Returns the refresh, with the times just before it was sent and once it was held.
    func heldRefresh(
        of books: CacheRepository<Note>
    ) throws -> (refresh: Response<Fetched<[Note]>>, sentAfter: Date, heldBefore: Date) {
        try server.hold("books")
        let sentAfter = Date()
        let refresh = books.fetchAll(AllObjectsQuery(), operation: .mainSync)
        #expect(server.waitFor("held books"))
        return (refresh, sentAfter, Date())
    }

    /// What the app shows after the refresh: the cached list, with where it came from and its age.
    func expectTheEditsWon(
        _ books: CacheRepository<Note>,
        added: Note,
        refresh: Response<Fetched<[Note]>>,
        sentAfter: Date,
        heldBefore: Date
    ) throws {
        // The refresh answers what the server said: the caller sees the server's snapshot.
        let answer = try refresh.get()
        #expect(answer.value.map(\.id) == ["b1", "b2", "b3", "b4", "b5"])
        #expect({ if case .main = answer.origin { true } else { false } }())

        // The cache keeps the edits: the added book, with the value it was put with, and not the deleted one.
        let list = try books.fetchAll(AllObjectsQuery()).get()
        #expect({ if case .cache = list.origin { true } else { false } }())
        #expect(list.value.map(\.id) == ["b2", "b3", "b4", "b5", added.id])
        #expect(list.value.last == added)
        // Its age is the refresh's: when it was sent, not when it was applied.
        let storedAt = try #require(list.storedAt)
        #expect(storedAt >= sentAfter.addingTimeInterval(-0.001) && storedAt <= heldBefore)
        #expect(books.get(IdQuery("b1"), operation: .cache).dataError?.code == .notFound)
        #expect(try books.get(IdQuery(added.id), operation: .cache).get() == added)
        #expect(try books.get(IdQuery("b2"), operation: .cache).get().text == "Book 2")
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshAnsweredAfterTheUserAddedAndDeletedBooksKeepsTheirEdits(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let books = CacheRepository(main: remote, cache: cache.source)
        let (refresh, sentAfter, heldBefore) = try heldRefresh(of: books)

        let added = try books.put(Note(id: "x", text: "Added while refreshing")).get()
        try books.delete(IdQuery("b1")).get()
        try server.release("books")

        try expectTheEditsWon(books, added: added, refresh: refresh, sentAfter: sentAfter, heldBefore: heldBefore)
        if let directory = cache.directory {  // an app started again finds the same list, as old as it was
            let reopened = CacheRepository(main: remote, cache: try kind.open(in: directory))
            let list = try reopened.fetchAll(AllObjectsQuery()).get()
            #expect(list.value.map(\.id) == ["b2", "b3", "b4", "b5", "x"])
            #expect(try #require(list.storedAt) <= heldBefore)
        }
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshOfTheWholeShelfNeverBringsBackABookDeletedMeanwhile(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let books = CacheRepository(main: remote, cache: cache.source)
        #expect(try books.getAll(AllObjectsQuery()).get().count == 5)  // the shelf as the app first showed it
        let (refresh, sentAfter, heldBefore) = try heldRefresh(of: books)

        try books.deleteAll(IdsQuery(["b1", "b3"])).get()
        let edited = try books.put(Note(id: "b2", text: "Renamed while refreshing")).get()
        try server.release("books")

        _ = try refresh.get()
        let list = try books.fetchAll(AllObjectsQuery()).get()
        #expect(list.value.map(\.id) == ["b2", "b4", "b5"])
        #expect(list.value.first == edited)  // the edit, not the server's older b2
        #expect(try #require(list.storedAt) >= sentAfter.addingTimeInterval(-0.001))
        #expect(try #require(list.storedAt) <= heldBefore)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshNeverUndoesWhatAnotherRepositoryOnTheSameCacheEditedMeanwhile(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let books = CacheRepository(main: remote, cache: cache.source)
        // Another screen's repository: over another instance on the same file or database, or the same instance.
        let other = try cache.directory.map { try kind.open(in: $0) } ?? cache.source
        let elsewhere = CacheRepository(main: remote, cache: other)
        let (refresh, sentAfter, heldBefore) = try heldRefresh(of: books)

        let added = try elsewhere.put(Note(id: "x", text: "Added on another screen")).get()
        try elsewhere.delete(IdQuery("b1")).get()
        try server.release("books")

        try expectTheEditsWon(books, added: added, refresh: refresh, sentAfter: sentAfter, heldBefore: heldBefore)
    }

    @Test(arguments: CacheStoreKind.persistent)
    func aRefreshNeverUndoesWhatAnotherProcessEditedMeanwhile(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let directory = try #require(cache.directory)
        let books = CacheRepository(main: remote, cache: cache.source)
        let (refresh, sentAfter, heldBefore) = try heldRefresh(of: books)

        // Another process (a share extension, a widget) adds a book and deletes one through its own repository on
        // the same cache.
        let (executable, file) =
            kind == .file
            ? (Fixtures.dataStoreExecutable, directory.file("notes.json"))
            : (Fixtures.sqliteStoreExecutable, directory.file("notes.sqlite"))
        let child = try ChildProcess(
            executable: executable,
            arguments: ["edit", file.path, server.baseURL.absoluteString, "x", "b1"]
        )
        let finished = child.waitForLine { $0 == "done" || $0.hasPrefix("error") }
        child.stop()
        #expect(finished == "done", "\(child.output) \(child.errorOutput)")
        try server.release("books")

        let added = Note(id: "x", text: "put by another process", revision: 1)  // as the server answered it
        try expectTheEditsWon(books, added: added, refresh: refresh, sentAfter: sentAfter, heldBefore: heldBefore)
    }
}
#endif
