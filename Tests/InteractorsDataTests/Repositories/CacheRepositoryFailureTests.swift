import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// A cache never hides the main source's answer, the fallback is the caller's rule, and an answer says where it
/// came from and when it was stored.
@Suite(.onThreadsOfTheirOwn) struct CacheRepositoryFailureTests {
    struct DiskFull: Error {}

    let main = RecordingSource("main", stampsRevisions: true)
    let brokenCache = RecordingSource("cache")
    let reports = LockedBox([DataError]())

    func repository(
        cache: some GetDataSource<Note> & PutDataSource<Note> & DeleteDataSource<Note>,
        maxAge: Duration? = nil,
        fallback: (@Sendable (any Error) -> Bool)? = nil
    ) -> CacheRepository<Note> {
        let reports = reports
        if let fallback {
            return CacheRepository(
                main: main,
                cache: cache,
                maxAge: maxAge,
                fallback: fallback,
                onCacheFailure: { error in reports.withLock { $0.append(error) } }
            )
        }
        return CacheRepository(
            main: main,
            cache: cache,
            maxAge: maxAge,
            onCacheFailure: { error in reports.withLock { $0.append(error) } }
        )
    }

    @Test func whenTheMainSourceSucceedsABrokenCacheFailsNothingAndIsReportedOncePerOperation() throws {
        try main.seed(ada, grace)
        brokenCache.failEveryCall(with: DataError(code: .storageFailed, message: "disk full"))
        let books = repository(cache: brokenCache)
        #expect(try books.get(IdQuery("ada")).get() == ada)
        #expect(try books.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(try books.get(IdQuery("ada"), operation: .mainSync).get() == ada)
        let stored = try books.put(alan).get()
        #expect(stored.revision == 1)
        try books.delete(IdQuery("grace")).get()
        #expect(reports.withLock { $0.count } == 5)
        #expect(reports.withLock { $0.allSatisfy { $0.code == .storageFailed && $0.message == "disk full" } })
        #expect(main.calls.filter { $0 == "put" }.count == 1)  // never sent twice
    }

    @Test func aCacheErrorThatIsNoDataErrorIsWrappedInStorageFailed() throws {
        try main.seed(ada)
        brokenCache.failEveryCall(with: DiskFull())
        _ = try repository(cache: brokenCache).put(ada).get()
        let report = try #require(reports.withLock { $0.first })
        #expect(report.code == .storageFailed)
        #expect(report.underlying is DiskFull)
    }

    @Test func theDefaultFallbackRefusesAnswersTheServerGaveAndCancellation() throws {
        let cache = InMemoryDataSource<Note>()
        try main.seed(ada)
        let books = repository(cache: cache)
        _ = try books.getAll(AllObjectsQuery()).get()
        for error: any Error in [
            HTTPError(status: 401), HTTPError(status: 403), HTTPError(status: 410), HTTPError(status: 404),
            CancellationError(), URLError(.cancelled), URLError(.httpTooManyRedirects),
            DataError(code: .mappingFailed, message: "a 200 that did not decode"),
            DataError(code: .corruptStore, message: "the main store"),
        ] {
            main.failEveryCall(with: error)
            #expect(books.get(IdQuery("ada"), operation: .mainSync).error.map { "\($0)" } == "\(error)")
            #expect(books.getAll(AllObjectsQuery(), operation: .mainSync).error.map { "\($0)" } == "\(error)")
        }
    }

    @Test func aFallbackRuleOfTheCallersIsGivenTheMainErrorUnchanged() throws {
        let cache = InMemoryDataSource<Note>()
        try main.seed(ada)
        let seen = LockedBox([Int]())
        let books = repository(cache: cache) { error in
            seen.withLock { $0.append((error as? HTTPError)?.status ?? -1) }
            return (error as? HTTPError)?.status == 403
        }
        _ = try books.getAll(AllObjectsQuery()).get()
        main.failEveryCall(with: HTTPError(status: 403))
        let fetched = try books.fetch(IdQuery("ada"), operation: .mainSync).get()
        #expect(fetched.value == ada)
        guard case .cacheAfterFailure(let error) = fetched.origin else {
            Issue.record("expected the cache after the failure, got \(fetched.origin)")
            return
        }
        #expect((error as? HTTPError)?.status == 403)
        main.failEveryCall(with: HTTPError(status: 503))
        #expect(books.get(IdQuery("ada"), operation: .mainSync).error is HTTPError)
        #expect(seen.withLock { $0 } == [403, 503])
    }

    @Test func anAnswerSaysWhereItCameFromAndWhenItWasStored() throws {
        let cache = InMemoryDataSource<Note>()
        try main.seed(ada, grace)
        let books = repository(cache: cache)
        let before = Date()
        let fromMain = try books.fetchAll(AllObjectsQuery()).get()
        let after = Date()
        #expect({ if case .main = fromMain.origin { true } else { false } }() && fromMain.storedAt == nil)
        let fromCache = try books.fetchAll(AllObjectsQuery()).get()
        #expect({ if case .cache = fromCache.origin { true } else { false } }())
        let storedAt = try #require(fromCache.storedAt)
        #expect(storedAt >= before && storedAt <= after)
        let one = try books.fetch(IdQuery("grace")).get()
        #expect(one.storedAt == storedAt)  // stored by the list read, at its time
        main.isOffline = true
        let offline = try books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(offline.value.map(\.id) == ["ada", "grace"])
        #expect(offline.storedAt == storedAt)
        guard case .cacheAfterFailure(let error) = offline.origin else {
            Issue.record("expected the cache after the failure, got \(offline.origin)")
            return
        }
        #expect((error as? URLError)?.code == .notConnectedToInternet)
        #expect(try books.fetch(IdQuery("ada"), operation: .cache).get().storedAt == storedAt)
        #expect(books.fetch(IdQuery("ada"), operation: .main).error is URLError)
    }

    @Test func aValueOrListOlderThanMaxAgeGoesToTheMainSourceButStillStandsInOffline() throws {
        let cache = InMemoryDataSource<Note>()
        try main.seed(ada)
        let young = repository(cache: cache, maxAge: .seconds(3600))
        _ = try young.getAll(AllObjectsQuery()).get()
        _ = try young.getAll(AllObjectsQuery()).get()
        _ = try young.get(IdQuery("ada")).get()
        #expect(main.calls == ["getAll"])
        let old = repository(cache: cache, maxAge: .zero)  // everything stored is older than that
        _ = try old.getAll(AllObjectsQuery()).get()
        _ = try old.get(IdQuery("ada")).get()
        #expect(main.calls == ["getAll", "getAll", "get"])
        main.isOffline = true
        let offline = try old.fetchAll(AllObjectsQuery()).get()
        #expect(offline.value.map(\.id) == ["ada"])
        #expect({ if case .cacheAfterFailure = offline.origin { true } else { false } }())
        #expect(try old.get(IdQuery("ada")).get().id == "ada")
    }

    @Test func aValuePutStraightIntoTheCacheHasNoKnownAgeSoMaxAgeSendsItToTheMainSource() throws {
        let cache = InMemoryDataSource<Note>()
        try main.seed(ada)
        _ = try cache.put(ada).get()
        let books = repository(cache: cache, maxAge: .seconds(3600))
        #expect(try books.fetch(IdQuery("ada"), operation: .cache).get().storedAt == nil)
        _ = try books.get(IdQuery("ada")).get()
        #expect(main.calls == ["get"])
    }
}
