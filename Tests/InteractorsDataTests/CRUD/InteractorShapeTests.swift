import DataTestSupport
import Interactors
import InteractorsData
import Testing

/// The CRUD interactors are `Interactor`s: one request in, a response out, with the default operation.
@Suite struct InteractorShapeTests {
    @Test func theOneRequestFormUsesTheDefaultOperation() throws {
        let main = RecordingSource("main")
        let cache = RecordingSource("cache")
        let repository = CacheRepository(main: main, cache: cache)
        // Changed by "Data you can trust": each interactor's request is its typed request.
        let put: any Interactor<PutRequest<Note>, Note> = PutInteractor(
            repository: repository,
            queue: ImmediateCallbackQueue.shared
        )
        let get: any Interactor<GetRequest<Note>, Note> = GetInteractor(
            repository: repository,
            queue: ImmediateCallbackQueue.shared
        )
        #expect(try put.execute(PutRequest(ada)).get() == ada)
        #expect(try get.execute(GetRequest(IdQuery("ada"))).get() == ada)
        #expect(main.calls == ["put"])  // put: mainSync; get: cacheSync, answered by the cache
        #expect(cache.calls == ["put", "get"])
    }

    @Test func aCRUDInteractorCanBeTypeErased() throws {
        let source = InMemoryDataSource<Note>()
        let put = AnyInteractor(
            PutInteractor(repository: SingleSourceRepository(source), queue: ImmediateCallbackQueue.shared)
        )
        #expect(try put.execute(PutRequest(ada)).get() == ada)
    }
}
