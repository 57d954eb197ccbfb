import DataTestSupport
import Interactors
import InteractorsData
import InteractorsTestKit
import TestThreads
import Testing

/// The default interactors: each runs its repository call on the queue it was given, with Harmony's default
/// operations, and passes the repository's answer through.
@Suite(.onThreadsOfTheirOwn) struct CRUDInteractorTests {
    let main = RecordingSource("main")
    let cache = RecordingSource("cache")
    let queue = ManualCallbackQueue()
    var repository: CacheRepository<Note> { CacheRepository(main: main, cache: cache) }

    @Test func workStartsOnTheGivenQueueNotOnTheCaller() throws {
        try main.seed(ada)
        let response = GetInteractor(repository: repository, queue: queue).execute(id: "ada")
        #expect(!response.isDone)
        #expect(main.calls.isEmpty && cache.calls.isEmpty)
        #expect(queue.runAll() >= 1)
        #expect(try response.get() == ada)
    }

    @Test func cancellingBeforeTheQueueRunsMeansTheRepositoryIsNeverCalled() throws {
        let response = PutInteractor(repository: repository, queue: queue).execute(ada)
        response.cancel()
        _ = queue.runAll()
        #expect(response.isCancelled)
        #expect(main.calls.isEmpty)
    }

    @Test func getReadsWithCacheSyncByDefaultAndByIdOrQuery() throws {
        try main.seed(ada, grace)
        let get = GetInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        #expect(try get.execute(id: "ada").get() == ada)
        #expect(try get.execute(IdQuery("grace")).get() == grace)
        #expect(main.calls == ["get", "get"] && cache.calls == ["get", "put", "get", "put"])
        #expect(try get.execute(id: "ada", operation: .cache).get() == ada)
        #expect(main.calls.count == 2)
    }

    @Test func getAllReadsEverythingWithCacheSyncByDefault() throws {
        try main.seed(ada, grace)
        let getAll = GetAllInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        #expect(try getAll.execute().get() == [ada, grace])
        #expect(try getAll.execute(IdsQuery(["grace"]), operation: .main).get() == [grace])
        #expect(main.calls == ["getAll", "getAll"] && cache.calls == ["getAll", "putAll"])
    }

    @Test func putAndPutAllWriteWithMainSyncByDefault() throws {
        let put = PutInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        let putAll = PutAllInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        #expect(try put.execute(ada).get() == ada)
        #expect(try putAll.execute([grace, alan]).get() == [grace, alan])
        _ = try put.execute(ada, operation: .cache).get()
        #expect(main.calls == ["put", "putAll"] && cache.calls == ["put", "putAll", "put"])
    }

    @Test func deleteAndDeleteAllDeleteWithMainSyncByDefault() throws {
        try main.seed(ada, grace, alan)
        try cache.seed(ada, grace, alan)
        let delete = DeleteInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        let deleteAll = DeleteAllInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        try delete.execute(id: "ada").get()
        try delete.execute(IdQuery("grace")).get()
        #expect(main.contents == [alan] && cache.contents == [alan])
        // Changed by "Data you can trust": deleting everything is spelled out, there is no argument-free form.
        try deleteAll.execute(AllObjectsQuery(), operation: .cache).get()
        #expect(main.contents == [alan] && cache.contents.isEmpty)
        try deleteAll.execute(AllObjectsQuery()).get()
        #expect(main.contents.isEmpty)
    }

    @Test func failuresComeThroughUnchanged() throws {
        let get = GetInteractor(repository: repository, queue: ImmediateCallbackQueue.shared)
        #expect(get.execute(id: "nobody").dataError?.code == .notFound)
        let getAll = GetAllInteractor(repository: SingleSourceRepository(main), queue: ImmediateCallbackQueue.shared)
        #expect(getAll.execute(TextSearchQuery(term: "x")).dataError?.code == .queryNotSupported)
        let delete = DeleteInteractor(repository: SingleSourceRepository(main), queue: ImmediateCallbackQueue.shared)
        #expect(delete.execute(AllObjectsQuery()).dataError?.code == .queryNotSupported)
    }
}
