import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// Lists are cached per query, a refresh replaces them, and deletions reach the cache: the cache tells the main
/// source's truth. Each test runs over every store that keeps the repository's index itself (in memory, a file,
/// a SQLite file, a SQLite database in memory).
@Suite struct CacheRepositoryListTests {
    let main = RecordingSource("main")

    /// A query only the main source understands, with a key of its own.
    struct ShelfQuery: CacheKeyQuery {
        let term: String
        var cacheKey: String { "shelf:\(term)" }
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aValueReadAloneMakesNoListSoTheListIsAskedOfTheMainSource(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace, alan)
        #expect(try repository.get(IdQuery("ada")).get() == ada)
        #expect(try repository.getAll(AllObjectsQuery()).get() == [ada, grace, alan])
        #expect(try repository.getAll(IdsQuery(["ada", "grace", "alan"])).get() == [ada, grace, alan])
        #expect(main.calls == ["get", "getAll", "getAll"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func valuesMerelyPutMakeNoList(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(grace)
        _ = try repository.put(ada).get()
        #expect(try repository.getAll(AllObjectsQuery()).get() == [grace, ada])
        #expect(main.calls == ["put", "getAll"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aStoredListIsAnsweredFromTheCacheByKey(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace)
        _ = try repository.getAll(AllObjectsQuery()).get()
        _ = try repository.getAll(IdsQuery(["grace"])).get()
        #expect(try repository.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(try repository.getAll(IdsQuery(["grace"])).get() == [grace])
        #expect(main.calls == ["getAll", "getAll"])
        #expect(try repository.getAll(IdsQuery(["ada", "grace"])).get() == [ada, grace])  // another key: asked
        #expect(main.calls.count == 3)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aQueryOnlyTheMainSourceUnderstandsIsAnsweredFromItsStoredList(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let remote = InMemoryDataSource<Note>()
        _ = try remote.putAll([ada, grace]).get()
        let shelves = CacheRepository(main: ForwardingSource.shelves(remote), cache: cache.source)
        #expect(try shelves.getAll(ShelfQuery(term: "Comp")).get() == [grace])
        _ = try remote.delete(IdQuery("grace")).get()  // the server changes; the stored list still answers
        let cached = try shelves.fetchAll(ShelfQuery(term: "Comp")).get()
        #expect(cached.value == [grace])
        #expect({ if case .cache = cached.origin { true } else { false } }())
        #expect(try shelves.getAll(ShelfQuery(term: "Comp"), operation: .mainSync).get() == [])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aQueryWithoutAKeyIsAskedOfTheMainSourceAndTheCacheStandsOnlyWhenItCannotAnswer(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace)
        _ = try cache.source.putAll([ada, grace, alan]).get()
        let startsWithA = FilterQuery<Note> { $0.id.hasPrefix("a") }
        #expect(try repository.getAll(startsWithA).get() == [ada])  // the main source's answer
        #expect(main.calls == ["getAll"])
        let rest = CacheRepository(main: ForwardingSource.runningNoClosures(main), cache: cache.source)
        #expect(try rest.getAll(startsWithA).get() == [ada, alan])  // the main source cannot: the cache's matches
        #expect(try rest.getAll(FilterQuery<Note> { _ in false }).get() == [])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshOfEverythingLeavesExactlyWhatTheMainSourceAnswered(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace, alan)
        _ = try repository.getAll(AllObjectsQuery(), operation: .mainSync).get()
        _ = try repository.getAll(IdsQuery(["grace", "alan"]), operation: .mainSync).get()
        _ = try RecordingSourceEditor(main).delete("grace")
        #expect(try repository.getAll(AllObjectsQuery(), operation: .mainSync).get() == [ada, alan])
        #expect(try cache.source.getAll(AllObjectsQuery()).get() == [ada, alan])
        #expect(try repository.getAll(AllObjectsQuery()).get() == [ada, alan])
        #expect(try repository.getAll(IdsQuery(["grace", "alan"])).get() == [alan])  // grace left every list
        #expect(cache.source.get(IdQuery("grace")).dataError?.code == .notFound)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshOfAnotherKeyReplacesItsListAndEvictsIdsTheMainSourceNoLongerHas(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace)
        _ = try repository.getAll(IdsQuery(["ada", "grace"])).get()
        _ = try RecordingSourceEditor(main).delete("grace")
        #expect(try repository.getAll(IdsQuery(["ada", "grace"]), operation: .mainSync).get() == [ada])
        #expect(try repository.getAll(IdsQuery(["ada", "grace"])).get() == [ada])
        #expect(cache.source.get(IdQuery("grace")).dataError?.code == .notFound)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func notFoundFromTheMainSourceEvictsTheIdFromTheCacheAndEveryList(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace)
        _ = try repository.getAll(AllObjectsQuery()).get()
        _ = try RecordingSourceEditor(main).delete("ada")
        #expect(repository.get(IdQuery("ada"), operation: .mainSync).dataError?.code == .notFound)
        #expect(repository.get(IdQuery("ada")).dataError?.code == .notFound)  // not answered from the cache
        #expect(try repository.getAll(AllObjectsQuery()).get() == [grace])
        #expect(try cache.source.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aDeleteTheMainSourceAnswersNotFoundSucceedsAndEvicts(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace)
        _ = try repository.getAll(AllObjectsQuery()).get()
        _ = try RecordingSourceEditor(main).delete("ada")
        let books = CacheRepository(main: ForwardingSource.alreadyDeleted(main), cache: cache.source)
        try books.delete(IdQuery("ada")).get()
        try books.deleteAll(IdsQuery(["ada"])).get()
        #expect(try books.getAll(AllObjectsQuery()).get() == [grace])
        #expect(try cache.source.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func deleteAllEvictsWhatItSelectedAndEverythingDropsTheLists(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada, grace, alan)
        _ = try repository.getAll(AllObjectsQuery()).get()
        try repository.deleteAll(FilterQuery<Note> { $0.id == "grace" }).get()
        #expect(try repository.getAll(AllObjectsQuery()).get() == [ada, alan])
        try repository.deleteAll(AllObjectsQuery()).get()
        #expect(try cache.source.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try repository.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(main.calls.filter { $0 == "getAll" }.count == 2)  // the list was gone, so it was asked again
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aPutTheMainSourceTookJoinsTheListOfEverything(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        try main.seed(ada)
        _ = try repository.getAll(AllObjectsQuery()).get()
        _ = try repository.put(grace).get()
        #expect(try repository.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(main.calls == ["getAll", "put"])
    }
}

extension ForwardingSource {
    /// A main source that understands `ShelfQuery` (a server's search), and nothing about filters.
    static func shelves(_ base: InMemoryDataSource<Note>) -> ForwardingSource {
        ForwardingSource(
            base: base,
            getAll: { query in
                (query as? CacheRepositoryListTests.ShelfQuery).map { shelf in
                    base.getAll(FilterQuery<Note> { $0.text.hasPrefix(shelf.term) })
                }
            }
        )
    }

    /// A main source that cannot answer a `FilterQuery`, as a REST server cannot.
    static func runningNoClosures(_ base: RecordingSource) -> ForwardingSource {
        ForwardingSource(
            base: base,
            getAll: { query in
                query is FilterQuery<Note>
                    ? Response(error: DataError(code: .queryNotSupported, message: "a server runs no closures")) : nil
            }
        )
    }

    /// A main source whose deletes answer notFound, as a server does for what another client deleted.
    static func alreadyDeleted(_ base: RecordingSource) -> ForwardingSource {
        ForwardingSource(
            base: base,
            deletes: { _ in Response(error: DataError(code: .notFound, message: "already gone")) }
        )
    }
}

/// Changes a recording source behind the repository's back, as another client changes a server.
struct RecordingSourceEditor {
    let source: RecordingSource
    init(_ source: RecordingSource) { self.source = source }

    func delete(_ id: String) throws {
        try source.remove(id)
    }
}
