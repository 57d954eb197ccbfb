import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// Where writes and deletes go, for each operation, and that a failed main write leaves the cache alone.
@Suite struct CacheRepositoryWritingTests {
    let main = RecordingSource("main", stampsRevisions: true)
    let cache = RecordingSource("cache")
    var repository: CacheRepository<Note> { CacheRepository(main: main, cache: cache) }

    @Test(arguments: [RepositoryOperation.mainSync, .cacheSync])
    func syncedPutWritesTheMainSourceThenCachesItsAnswer(operation: RepositoryOperation) throws {
        let stored = try repository.put(ada, operation: operation).get()
        #expect(stored.revision == 1)
        #expect(main.contents == [stored])
        #expect(cache.contents == [stored])
        let all = try repository.putAll([grace, alan], operation: operation).get()
        #expect(all.map(\.revision) == [1, 1])
        #expect(cache.contents == [stored] + all)
    }

    @Test func mainAndCachePutWriteOneSourceEach() throws {
        _ = try repository.put(ada, operation: .main).get()
        _ = try repository.putAll([grace], operation: .cache).get()
        #expect(main.contents.map(\.id) == ["ada"])
        #expect(cache.contents == [grace])
    }

    @Test func aFailedMainWriteLeavesTheCacheAlone() throws {
        main.isOffline = true
        #expect(repository.put(ada).error is URLError)
        #expect(repository.putAll([ada]).error is URLError)
        #expect(cache.calls == [])
    }

    @Test(arguments: [RepositoryOperation.mainSync, .cacheSync])
    func syncedDeleteDeletesFromBoth(operation: RepositoryOperation) throws {
        try main.seed(ada, grace)
        try cache.seed(ada, grace)
        try repository.delete(IdQuery("ada"), operation: operation).get()
        #expect(main.contents == [grace] && cache.contents == [grace])
        try repository.deleteAll(AllObjectsQuery(), operation: operation).get()
        #expect(main.contents.isEmpty && cache.contents.isEmpty)
    }

    @Test func mainAndCacheDeleteFromOneSourceEach() throws {
        try main.seed(ada)
        try cache.seed(ada)
        try repository.delete(IdQuery("ada"), operation: .main).get()
        #expect(main.contents.isEmpty && cache.contents == [ada])
        try repository.deleteAll(AllObjectsQuery(), operation: .cache).get()
        #expect(cache.contents.isEmpty)
    }

    @Test func aFailedMainDeleteLeavesTheCacheAlone() throws {
        try cache.seed(ada)
        main.isOffline = true
        #expect(repository.delete(IdQuery("ada")).error is URLError)
        #expect(repository.deleteAll(AllObjectsQuery()).error is URLError)
        #expect(cache.contents == [ada])
        #expect(cache.calls == [])
    }

    @Test func writesAndDeletesDefaultToMainSync() throws {
        _ = try repository.put(ada).get()
        _ = try repository.putAll([grace]).get()
        try repository.delete(IdQuery("ada")).get()
        try repository.deleteAll(IdsQuery(["grace"])).get()
        #expect(main.calls == ["put", "putAll", "delete", "deleteAll"])
        // Changed by "Data you can trust": the cache is brought in line value by value (one value, one id here).
        #expect(cache.calls == ["put", "put", "delete", "delete"])
    }
}
