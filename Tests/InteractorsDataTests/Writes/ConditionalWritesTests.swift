// Foundation's Process, which the fixture server needs, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// Create-only puts and deletes that say whether it was there (issue 34 §4): atomic in every store, a
/// `PUT` with `If-None-Match: *` and a 404 over REST, passed on by the repositories and the CRUD interactors.
@Suite(.onThreadsOfTheirOwn) struct ConditionalWritesTests {
    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL)
    }

    // MARK: The stores

    @Test(arguments: CacheStoreKind.allCases)
    func aCreateOnlyPutStoresAnAbsentValueAndRefusesATakenId(kind: CacheStoreKind) throws {
        let store = try kind.make()  // kept: it holds the directory of a file store
        defer { withExtendedLifetime(store) {} }
        let notes = store.source
        #expect(try notes.put(ada, ifAbsent: true).get() == ada)
        let other = Note(id: "ada", text: "another Ada")
        let error = try #require(notes.put(other, ifAbsent: true).dataError)
        #expect(error.code == .conflict)
        #expect(error.message.contains("ada"))
        #expect(try notes.get(IdQuery("ada")).get() == ada)
        #expect(try notes.put(other, ifAbsent: false).get() == other)  // a plain put replaces it
    }

    @Test(arguments: CacheStoreKind.allCases)
    func sixteenCreateOnlyPutsOfOneIdLetExactlyOneThrough(kind: CacheStoreKind) throws {
        let store = try kind.make()  // kept: it holds the directory of a file store
        defer { withExtendedLifetime(store) {} }
        let notes = store.source
        let outcomes = LockedBox<[Int: Result<Note, any Error>]>([:])
        onThreads(16) { index in
            let result = Result { try notes.put(Note(id: "x", text: "\(index)"), ifAbsent: true).get() }
            outcomes.withLock { $0[index] = result }
        }
        let results = outcomes.withLock { $0 }
        let winners = results.filter { (try? $0.value.get()) != nil }
        let conflicts = results.values.filter { result in
            if case .failure(let error as DataError) = result { return error.code == .conflict }
            return false
        }
        #expect(winners.count == 1 && conflicts.count == 15, "\(results)")
        #expect(try notes.get(IdQuery("x")).get().text == "\(try #require(winners.first?.key))")
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aDeleteIfPresentSaysWhetherTheValueWasThere(kind: CacheStoreKind) throws {
        let store = try kind.make()  // kept: it holds the directory of a file store
        defer { withExtendedLifetime(store) {} }
        let notes = store.source
        _ = try notes.putAll([ada, grace]).get()
        #expect(notes.delete(IdQuery<String>("nobody"), ifPresent: true).dataError?.code == .notFound)
        try notes.delete(IdQuery("ada"), ifPresent: true).get()
        #expect(notes.delete(IdQuery("ada"), ifPresent: true).dataError?.code == .notFound)
        try notes.delete(IdQuery("ada"), ifPresent: false).get()  // a plain delete of a missing id succeeds
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func sixteenDeletesIfPresentOfOneIdLetExactlyOneSucceed(kind: CacheStoreKind) throws {
        let store = try kind.make()  // kept: it holds the directory of a file store
        defer { withExtendedLifetime(store) {} }
        let notes = store.source
        _ = try notes.put(ada).get()
        let succeeded = LockedBox(0)
        let notFound = LockedBox(0)
        onThreads(16) { _ in
            switch Result(catching: { try notes.delete(IdQuery("ada"), ifPresent: true).get() }) {
            case .success: succeeded.withLock { $0 += 1 }
            case .failure(let error): if (error as? DataError)?.code == .notFound { notFound.withLock { $0 += 1 } }
            }
        }
        #expect(succeeded.withLock { $0 } == 1)
        #expect(notFound.withLock { $0 } == 15)
    }

    @Test func userDefaultsReadsThenWrites() throws {
        let domain = try DefaultsDomain()
        let notes = UserDefaultsDataSource<Note>(defaults: domain.defaults, keyPrefix: "notes.")
        #expect(try notes.put(ada, ifAbsent: true).get() == ada)
        #expect(notes.put(ada, ifAbsent: true).dataError?.code == .conflict)
        try notes.delete(IdQuery("ada"), ifPresent: true).get()
        #expect(notes.delete(IdQuery("ada"), ifPresent: true).dataError?.code == .notFound)
    }

    @Test func aSourceThatCannotReadRefusesTheConditionsAndKeepsItsPlainWrites() throws {
        let writeOnly = WriteOnly()
        #expect(writeOnly.put(ada, ifAbsent: true).dataError?.code == .queryNotSupported)
        #expect(try writeOnly.put(ada, ifAbsent: false).get() == ada)
        #expect(writeOnly.delete(IdQuery("ada"), ifPresent: true).dataError?.code == .queryNotSupported)
        try writeOnly.delete(IdQuery("ada"), ifPresent: false).get()
    }

    // MARK: REST, on the wire

    @Test func aCreateOnlyPutSendsIfNoneMatchAndA412IsAConflict() throws {
        let notes = RESTDataSource<Note>(client: client, path: "notes")
        #expect(try notes.put(ada, ifAbsent: true).get().id == "ada")
        let error = try #require(notes.put(Note(id: "ada", text: "another"), ifAbsent: true).dataError)
        #expect(error.code == .conflict)
        #expect((error.underlying as? HTTPError)?.status == 412)
        #expect(try notes.get(IdQuery("ada")).get().text == ada.text)
        let puts = try server.received().filter { $0.method == "PUT" }
        #expect(puts.map { $0.headers["if-none-match"] } == ["*", "*"])
        _ = try notes.put(Note(id: "ada", text: "replaced")).get()
        #expect(try server.received().last?.headers["if-none-match"] == nil)  // a plain PUT carries no condition
    }

    @Test func aDeleteOfAMissingIdIsNotFoundOverREST() throws {
        let notes = RESTDataSource<Note>(client: client, path: "notes")
        _ = try notes.put(ada).get()
        try notes.delete(IdQuery("ada"), ifPresent: true).get()
        #expect(notes.delete(IdQuery("ada"), ifPresent: true).dataError?.code == .notFound)
        #expect(try server.requestLines().suffix(2) == ["DELETE /notes/ada", "DELETE /notes/ada"])
    }

    // MARK: Repositories and interactors

    @Test func aConflictLeavesTheCacheUnwritten() throws {
        let remote = RESTDataSource<Note>(client: client, path: "books")
        _ = try remote.put(ada).get()
        let cache = InMemoryDataSource<Note>()
        let books = CacheRepository(main: remote, cache: cache)
        #expect(books.put(Note(id: "ada", text: "collides"), ifAbsent: true).dataError?.code == .conflict)
        #expect(cache.get(IdQuery("ada")).dataError?.code == .notFound)
        let created = try books.put(grace, ifAbsent: true).get()
        #expect(try cache.get(IdQuery("grace")).get() == created)
    }

    @Test func aDeleteIfPresentOfWhatTheServerNoLongerHasEvictsItAndSaysSo() throws {
        let remote = RESTDataSource<Note>(client: client, path: "books")
        let cache = InMemoryDataSource<Note>()
        _ = try cache.put(ada).get()  // a stale copy: the server has no ada
        let books = CacheRepository(main: remote, cache: cache)
        #expect(books.delete(IdQuery("ada"), ifPresent: true).dataError?.code == .notFound)
        #expect(cache.get(IdQuery("ada")).dataError?.code == .notFound)
        try books.delete(IdQuery("ada"), ifPresent: false).get()  // the plain delete still succeeds
    }

    @Test func theCRUDRequestsCarryTheConditionsThroughTheExecutor() throws {
        let books = MappedRepository(
            SingleSourceRepository(InMemoryDataSource<Note>()),
            toEntity: { $0 },
            toDTO: { $0 }
        )
        let executor = InteractorExecutor()
        executor.register(PutInteractor(repository: books, queue: DispatchQueue(label: "puts")))
        executor.register(DeleteInteractor(repository: books, queue: DispatchQueue(label: "deletes")))
        _ = try executor.execute(PutRequest(ada, ifAbsent: true)).get()
        #expect(executor.execute(PutRequest(ada, ifAbsent: true)).dataError?.code == .conflict)
        try executor.execute(DeleteRequest<Note>(IdQuery("ada"), ifPresent: true)).get()
        #expect(executor.execute(DeleteRequest<Note>(IdQuery("ada"), ifPresent: true)).dataError?.code == .notFound)
        var everything = DeleteRequest<Note>(AllObjectsQuery())
        everything.ifPresent = true
        #expect(executor.execute(everything).dataError?.code == .queryNotSupported)
    }
}

/// A source that writes but cannot read: the conditions need a read it cannot make.
private struct WriteOnly: PutDataSource, DeleteDataSource {
    typealias Value = Note

    func put(_ value: Note) -> Response<Note> { Response(value: value) }
    func putAll(_ values: [Note]) -> Response<[Note]> { Response(value: values) }
    func delete(_ query: any Query) -> Response<Void> { Response(value: ()) }
    func deleteAll(_ query: any Query) -> Response<Void> { Response(value: ()) }
}
#endif
