import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// Which source a read uses, for each operation, and what happens when one of them fails.
@Suite struct CacheRepositoryReadingTests {
    let main = RecordingSource("main")
    let cache = RecordingSource("cache")

    func repository(isValid: @escaping @Sendable (Note) -> Bool = { _ in true }) -> CacheRepository<Note> {
        CacheRepository(main: main, cache: cache, isValid: isValid)
    }

    @Test func mainAndCacheReadOneSourceEach() throws {
        try main.seed(ada)
        try cache.seed(grace)
        #expect(try repository().get(IdQuery("ada"), operation: .main).get() == ada)
        #expect(try repository().getAll(AllObjectsQuery(), operation: .cache).get() == [grace])
        #expect(main.calls == ["get"])
        #expect(cache.calls == ["getAll"])
    }

    @Test func mainSyncReadsTheMainSourceAndStoresTheValueInTheCache() throws {
        try main.seed(ada, grace)
        #expect(try repository().get(IdQuery("ada"), operation: .mainSync).get() == ada)
        #expect(try repository().getAll(AllObjectsQuery(), operation: .mainSync).get() == [ada, grace])
        #expect(cache.contents == [ada, grace])
    }

    // Changed by "Data you can trust": an offline list read answers the list an earlier read stored, not whatever
    // values the cache happens to hold.
    @Test func mainSyncWithTheNetworkDownAnswersTheCachedValueAndTheStoredList() throws {
        try main.seed(ada)
        let repository = repository()  // a plain cache: the repository keeps its lists, in memory
        _ = try repository.getAll(AllObjectsQuery(), operation: .mainSync).get()
        main.isOffline = true
        #expect(try repository.get(IdQuery("ada"), operation: .mainSync).get() == ada)
        #expect(try repository.getAll(AllObjectsQuery(), operation: .mainSync).get() == [ada])
    }

    @Test func mainSyncWithTheNetworkDownAndNothingCachedFailsWithTheNetworkError() throws {
        main.isOffline = true
        let error = try #require(repository().get(IdQuery("ada"), operation: .mainSync).error as? URLError)
        #expect(error.code == .notConnectedToInternet)
        let all = try #require(repository().getAll(AllObjectsQuery(), operation: .mainSync).error as? URLError)
        #expect(all.code == .notConnectedToInternet)
    }

    @Test func mainSyncFallbackIgnoresTheValidator() throws {
        try cache.seed(ada)
        main.isOffline = true
        let stale = repository(isValid: { _ in false })
        #expect(try stale.get(IdQuery("ada"), operation: .mainSync).get() == ada)
    }

    // Changed by "Data you can trust": notFound also evicts the id from the cache.
    @Test func mainSyncNotFoundIsTheAnswerNotAFailureToFallBackFrom() throws {
        try cache.seed(ada)
        #expect(repository().get(IdQuery("ada"), operation: .mainSync).dataError?.code == .notFound)
        #expect(cache.calls == ["delete"])
        #expect(cache.contents.isEmpty)
    }

    @Test func mainSyncDoesNotFallBackWhenTheMainReadWasCancelled() throws {
        try cache.seed(ada)
        main.failEveryCall(with: CancellationError())
        #expect(repository().get(IdQuery("ada"), operation: .mainSync).error is CancellationError)
        #expect(repository().getAll(AllObjectsQuery(), operation: .mainSync).error is CancellationError)
        #expect(cache.calls == [])
    }

    // Changed by "Data you can trust": only failures that say the server is unavailable fall back by default.
    @Test func mainSyncFallsBackWhenTheServerIsUnavailable() throws {
        try main.seed(ada)
        let repository = repository()
        _ = try repository.getAll(AllObjectsQuery(), operation: .mainSync).get()
        for error: any Error in [
            HTTPError(status: 503), HTTPError(status: 500), HTTPError(status: 408), HTTPError(status: 429),
            URLError(.timedOut), URLError(.networkConnectionLost), ResponseError.timedOut,
        ] {
            main.failEveryCall(with: error)
            #expect(try repository.get(IdQuery("ada"), operation: .mainSync).get() == ada)
            #expect(try repository.getAll(AllObjectsQuery(), operation: .mainSync).get() == [ada])
        }
    }

    // Changed by "Data you can trust": a list is answered from the cache only once a read of the main source
    // stored it.
    @Test func cacheSyncAnswersAValidCachedValueOrListWithoutAskingTheMainSource() throws {
        try cache.seed(ada)
        #expect(try repository().get(IdQuery("ada"), operation: .cacheSync).get() == ada)
        #expect(main.calls == [])
        try main.seed(ada)
        let repository = repository()
        _ = try repository.getAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(try repository.getAll(AllObjectsQuery(), operation: .cacheSync).get() == [ada])
        #expect(main.calls == ["getAll"])
    }

    @Test func cacheSyncMissReadsTheMainSourceAndStoresTheValue() throws {
        try main.seed(ada)
        #expect(try repository().get(IdQuery("ada"), operation: .cacheSync).get() == ada)
        #expect(cache.contents == [ada])
        #expect(main.calls == ["get"])
    }

    @Test func cacheSyncWithAnEmptyGetAllReadsTheMainSource() throws {
        try main.seed(ada, grace)
        #expect(try repository().getAll(AllObjectsQuery(), operation: .cacheSync).get() == [ada, grace])
        #expect(cache.contents == [ada, grace])
    }

    @Test func cacheSyncWithAStaleValueGoesToTheMainSource() throws {
        let fresh = Note(id: "ada", text: "fresh", revision: 2)
        try main.seed(fresh)
        try cache.seed(Note(id: "ada", text: "stale", revision: 1))
        let repository = repository(isValid: { $0.revision >= 2 })
        #expect(try repository.get(IdQuery("ada"), operation: .cacheSync).get() == fresh)
        #expect(try repository.getAll(AllObjectsQuery(), operation: .cacheSync).get() == [fresh])
        #expect(cache.contents == [fresh])
    }

    @Test func cacheSyncWithAStaleValueAndTheNetworkDownAnswersTheStaleValue() throws {
        let stale = Note(id: "ada", text: "stale", revision: 1)
        try cache.seed(stale)
        main.isOffline = true
        #expect(try repository(isValid: { _ in false }).get(IdQuery("ada"), operation: .cacheSync).get() == stale)
    }

    @Test func cacheSyncTreatsAQueryTheCacheCannotAnswerAsAMiss() throws {
        let remote = InMemoryDataSource<Note>()
        _ = try remote.put(ada).get()
        let searching = ForwardingSource(base: remote) { query in
            (query as? TextSearchQuery).map { search in
                remote.getAll(FilterQuery<Note> { $0.text.lowercased().contains(search.term) })
            }
        }
        let search = CacheRepository(main: searching, cache: cache)
        #expect(try search.getAll(TextSearchQuery(term: "engine")).get() == [ada])
        #expect(cache.contents == [ada])
    }

    // Changed by "Data you can trust": a cache that cannot be read is a miss, reported, and the main source's
    // answer stands.
    @Test func cacheSyncCountsACorruptCacheAsAMissAndReportsIt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.json")
        try Data("garbage".utf8).write(to: url)
        try main.seed(ada)
        let reports = LockedBox([DataError]())
        let repository = CacheRepository(
            main: main,
            cache: FileDataSource<Note>(fileURL: url),
            onCacheFailure: { error in reports.withLock { $0.append(error) } }
        )
        #expect(try repository.get(IdQuery("ada")).get() == ada)
        #expect(main.calls == ["get"])
        #expect(reports.withLock { $0.map(\.code) } == [.corruptStore])
        #expect(try Data(contentsOf: url) == Data("garbage".utf8))
    }

    // Changed by "Data you can trust": values merely in the cache make no list, so the list read asks the main
    // source.
    @Test func readsDefaultToCacheSync() throws {
        try cache.seed(ada)
        try main.seed(grace)
        #expect(try repository().get(IdQuery("ada")).get() == ada)
        #expect(main.calls == [])
        #expect(try repository().getAll(AllObjectsQuery()).get() == [grace])
        #expect(main.calls == ["getAll"])
    }
}
