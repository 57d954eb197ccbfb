import DataTestSupport
import Dispatch
import Interactors
import InteractorsData
import InteractorsTestKit
import Testing

/// The six CRUD interactors register on an executor in one line each and run with typed requests.
@Suite struct CRUDExecutorTests {
    let main = RecordingSource("main")
    let cache = RecordingSource("cache")
    let executor = InteractorExecutor()

    init() {
        let books = CacheRepository(main: main, cache: cache)
        let queue = DispatchQueue.global()
        executor.register(GetInteractor(repository: books, queue: queue))
        executor.register(GetAllInteractor(repository: books, queue: queue))
        executor.register(PutInteractor(repository: books, queue: queue))
        executor.register(PutAllInteractor(repository: books, queue: queue))
        executor.register(DeleteInteractor(repository: books, queue: queue))
        executor.register(DeleteAllInteractor(repository: books, queue: queue))
    }

    @Test func eachRequestRunsOnItsInteractorWithItsDefaultOperation() throws {
        #expect(try executor.execute(PutRequest(ada)).get() == ada)
        #expect(try executor.execute(PutAllRequest([grace, alan])).get() == [grace, alan])
        #expect(main.calls == ["put", "putAll"])
        #expect(try executor.execute(GetRequest<Note>(IdQuery("ada"))).get() == ada)  // cacheSync: the cache
        #expect(try executor.execute(GetAllRequest<Note>(AllObjectsQuery())).get() == [ada, grace, alan])
        #expect(main.calls == ["put", "putAll", "getAll"])
        try executor.execute(DeleteRequest<Note>(IdQuery("ada"))).get()
        try executor.execute(DeleteAllRequest<Note>(IdsQuery(["grace"]))).get()
        #expect(main.contents == [alan] && cache.contents == [alan])
        try executor.execute(DeleteAllRequest<Note>(AllObjectsQuery())).get()
        #expect(main.contents.isEmpty && cache.contents.isEmpty)
    }

    @Test func theOperationTravelsWithTheRequest() throws {
        try main.seed(ada)
        #expect(try executor.execute(GetRequest<Note>(IdQuery("ada"), operation: .main)).get() == ada)
        #expect(executor.execute(GetRequest<Note>(IdQuery("ada"), operation: .cache)).dataError?.code == .notFound)
        _ = try executor.execute(PutRequest(grace, operation: .cache)).get()
        _ = try executor.execute(PutAllRequest([alan], operation: .main)).get()
        try executor.execute(DeleteRequest<Note>(IdQuery("grace"), operation: .cache)).get()
        #expect(try executor.execute(GetAllRequest<Note>(AllObjectsQuery(), operation: .main)).get() == [ada, alan])
        try executor.execute(DeleteAllRequest<Note>(AllObjectsQuery(), operation: .main)).get()
        #expect(main.contents.isEmpty && cache.contents.isEmpty)
        let request = GetRequest<Note>(IdQuery("x"), operation: .mainSync)
        #expect(request.operation == .mainSync && (request.query as? IdQuery<String>)?.id == "x")
        #expect(DeleteAllRequest<Note>(AllObjectsQuery()).operation == .mainSync)
        #expect(GetAllRequest<Note>(AllObjectsQuery()).operation == .cacheSync)
    }

    @Test func aSpyStandsInForACRUDInteractor() throws {
        let spy = InteractorSpy<GetRequest<Note>, Note>()
        spy.alwaysAnswer(with: grace)
        executor.register(spy)
        #expect(try executor.execute(GetRequest<Note>(IdQuery("grace"))).get() == grace)
        #expect(spy.requests.count == 1)
    }
}
